package org.sctpj.trace;

import java.io.IOException;
import java.nio.file.Path;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.llp.LowerLayer;

/**
 * Live capture: one pcap file that the lower layers of any number of sockets write their packets
 * to, as they are sent and received, for Wireshark or tshark. Hand {@link #wrap} to the APIs:
 *
 * <pre>{@code
 * try (PcapCapture capture = PcapCapture.open(Path.of("run.pcap"))) {
 *     // callback API
 *     CallbackSocket s = CallbackSocket.open(runtime, options, UdpLayers.factory(0).decorated(capture::wrap), cb);
 *     // socket API
 *     SctpProvider p = SctpProvider.of(callbackRuntime, options).withLayerDecorator(capture::wrap);
 *     ...
 * }
 * }</pre>
 *
 * <p>Framing: a layer that is (or decorates) UDP encapsulation is written as SCTP in UDP (RFC
 * 6951) with its real ports, the peer's as the layer knows it when each packet passes; any other
 * layer as SCTP straight over IP. Wireshark decodes UDP port 9899 as SCTP by itself; for another
 * port, say so ({@code tshark -d udp.port==P,sctp}; {@link TsharkJudge} takes the port).
 *
 * <p>Threads: {@link #wrap} from any thread; the layers it returns write from their own stack
 * threads, one packet at a time (see {@link PcapLowerLayer}). Closing a wrapped layer leaves the
 * file open; {@link #close} flushes and closes it: close the sockets first (a wrapped layer that
 * sends after that fails with an {@code IllegalStateException}). Needs the native libpcap (Debian
 * package {@code libpcap0.8}).
 */
public final class PcapCapture implements AutoCloseable {

    private final Path file;
    private final PcapWriter writer;

    private PcapCapture(Path file, PcapWriter writer) {
        this.file = file;
        this.writer = writer;
    }

    /**
     * Creates (or truncates) {@code file}.
     *
     * @throws IOException if the file cannot be created or libpcap cannot be loaded (the message
     *     says what to install)
     */
    public static PcapCapture open(Path file) throws IOException {
        return new PcapCapture(file, PcapWriter.open(file));
    }

    /** The capture file. */
    public Path file() {
        return file;
    }

    /**
     * Wraps {@code inner} so that every packet it sends or receives is written to this capture:
     * the {@code LowerLayerFactory.Decorator} of the callback and socket APIs.
     */
    public LowerLayer wrap(LowerLayer inner) {
        PcapLowerLayer.Framing framing = PcapLowerLayer.Framing.raw();
        for (LowerLayer l = inner; l != null; l = l.inner()) {
            if (l instanceof UdpEncapsulation u) {
                framing = PcapLowerLayer.Framing.udp(u::localPort, u::remotePort);
                break;
            }
        }
        return new PcapLowerLayer(inner, writer, framing, PcapLowerLayer::wallClockNanos, false);
    }

    /** Writes what is buffered to the file, so that it can be read while the capture runs. */
    public void flush() throws IOException {
        synchronized (writer) {
            writer.flush();
        }
    }

    /** Flushes and closes the file. */
    @Override
    public void close() throws IOException {
        synchronized (writer) {
            writer.close();
        }
    }
}
