package org.sctpj.tests.netns;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free-form namespace topologies for the address-selection tests: namespaces by short name (their
 * real names carry a random suffix), veth links, bridges, addresses and routes. {@link #close()}
 * deletes every namespace made and never throws. Commands run through {@link MultiPathBed#run}.
 */
final class Topology implements AutoCloseable {
    private final String suffix = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
    private final Map<String, String> names = new LinkedHashMap<>();
    private final List<String[]> links = new ArrayList<>();

    /** Adds namespace {@code name} with loopback up; {@code router} turns IPv4/IPv6 forwarding on. */
    Topology host(String name, boolean router) throws IOException {
        String real = "sctpj-" + name + "-" + suffix;
        MultiPathBed.run("ip", "netns", "add", real);
        names.put(name, real);
        in(name, "ip", "link", "set", "lo", "up");
        if (router) {
            in(name, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1");
            in(name, "sysctl", "-q", "-w", "net.ipv6.conf.all.forwarding=1");
        }
        return this;
    }

    /** A veth link from {@code ns1}'s {@code if1} to {@code ns2}'s {@code if2}, both up. */
    Topology link(String ns1, String if1, String ns2, String if2) throws IOException {
        MultiPathBed.run(
                "ip", "link", "add", if1, "netns", ns(ns1), "type", "veth", "peer", "name", if2, "netns", ns(ns2));
        in(ns1, "ip", "link", "set", if1, "up");
        in(ns2, "ip", "link", "set", if2, "up");
        links.add(new String[] {ns1, if1});
        links.add(new String[] {ns2, if2});
        return this;
    }

    /** A bridge {@code br} in {@code ns}, up, with the given ports. */
    Topology bridge(String ns, String br, String... ports) throws IOException {
        in(ns, "ip", "link", "add", br, "type", "bridge");
        for (String p : ports) {
            in(ns, "ip", "link", "set", p, "master", br);
        }
        in(ns, "ip", "link", "set", br, "up");
        return this;
    }

    /** Adds addresses ("a.b.c.d/n" or IPv6 "x::y/n", the latter without duplicate detection). */
    Topology addr(String ns, String dev, String... cidrs) throws IOException {
        for (String c : cidrs) {
            if (c.contains(":")) {
                in(ns, "ip", "-6", "addr", "add", c, "dev", dev, "nodad");
            } else {
                in(ns, "ip", "addr", "add", c, "dev", dev);
            }
        }
        return this;
    }

    /** A route in {@code ns} to {@code prefix} via {@code gateway}. */
    Topology route(String ns, String prefix, String gateway) throws IOException {
        in(ns, "ip", prefix.contains(":") ? "-6" : "-4", "route", "add", prefix, "via", gateway);
        return this;
    }

    /** Waits until every veth end made so far has carrier (see {@link MultiPathBed#awaitCarrier}). */
    Topology awaitCarrier() throws IOException {
        for (String[] l : links) {
            MultiPathBed.awaitCarrier(ns(l[0]), l[1]);
        }
        return this;
    }

    /** The real name of namespace {@code name}. */
    String ns(String name) {
        String real = names.get(name);
        if (real == null) {
            throw new IllegalArgumentException("no namespace " + name + " in " + names.keySet());
        }
        return real;
    }

    /** The namespace file of {@code name}. */
    Path file(String name) {
        return Path.of("/var/run/netns", ns(name));
    }

    /** Runs a command in namespace {@code name}. */
    String in(String name, String... command) throws IOException {
        return MultiPathBed.in(ns(name), command);
    }

    @Override
    public void close() {
        List<String> all = new ArrayList<>(names.values());
        for (String real : all) {
            try {
                MultiPathBed.run("ip", "netns", "delete", real);
            } catch (IOException | RuntimeException e) {
                // already gone
            }
        }
    }
}
