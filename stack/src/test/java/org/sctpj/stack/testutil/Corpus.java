package org.sctpj.stack.testutil;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The capture corpus of {@code src/test/resources/corpus/} (see its README.md): the list of pcap
 * files, found by listing the directory (never by name), and their SCTP packets. Setting the system
 * property {@code sctpj.corpus.dir} points the corpus tests at another directory of captures, for
 * example a held-back set.
 */
public final class Corpus {
    private Corpus() {}

    /** System property naming another corpus directory. */
    public static final String DIR_PROPERTY = "sctpj.corpus.dir";

    /** The corpus directory. */
    public static Path directory() {
        String override = System.getProperty(DIR_PROPERTY);
        if (override != null && !override.isBlank()) {
            return Path.of(override);
        }
        URL readme = Corpus.class.getResource("/corpus/README.md");
        if (readme == null) {
            throw new IllegalStateException("corpus/README.md is not on the test class path");
        }
        try {
            return Path.of(readme.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("corpus directory not reachable as a file: " + readme, e);
        }
    }

    /** The file names of every {@code .pcap} in the corpus directory, sorted. */
    public static List<String> pcapFiles() {
        try (Stream<Path> s = Files.list(directory())) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".pcap"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SCTP packets of one corpus file, in file order. */
    public static List<PcapReader.SctpFrame> packets(String file) {
        try (InputStream in = Files.newInputStream(directory().resolve(file))) {
            return PcapReader.sctpPackets(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SCTP packets of every corpus file, each as raw bytes. */
    public static List<byte[]> allPacketBytes() {
        return pcapFiles().stream()
                .flatMap(f -> packets(f).stream())
                .map(PcapReader.SctpFrame::sctp)
                .toList();
    }
}
