package org.sctpj.llp.raw;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.sctpj.stack.addr.AddressClass;
import org.sctpj.stack.addr.LocalInterface;

/**
 * Discovery of this host's interfaces and addresses, for the core's address selection ({@link
 * #localInterfaces()} gives {@link LocalInterface}s for {@code Endpoint.setAddressPolicy}) and to
 * choose the local addresses of a multihomed endpoint.
 *
 * <pre>{@code
 * List<InetAddress> mine = Interfaces.addresses(EnumSet.of(AddressClass.PUBLIC_V4, AddressClass.GLOBAL_V6));
 * endpoint.setAddressPolicy(Interfaces.localInterfaces(), DefaultAddressSelector.INSTANCE, CollisionInfo.NONE);
 * }</pre>
 *
 * <p><b>Network namespaces.</b> Interface names, state, MTU and IPv4 addresses come from {@link
 * NetworkInterface}, which asks the kernel through a socket and so sees the calling thread's
 * namespace. The JDK reads IPv6 addresses from {@code /proc/net/if_inet6}, which shows the
 * process's namespace instead; so on Linux the IPv6 addresses are read from {@code
 * /proc/thread-self/net/if_inet6} and only interfaces listed in {@code /proc/thread-self/net/dev}
 * are kept. Called inside {@link NetworkNamespace#call}, discovery therefore describes that
 * namespace, IPv6 included. Tentative (duplicate address detection not finished) and failed IPv6
 * addresses are left out: they cannot be used as sources yet.
 */
public final class Interfaces {
    private Interfaces() {}

    private static final Path THREAD_NET = Path.of("/proc/thread-self/net");
    private static final int IFA_F_DADFAILED = 0x08;
    private static final int IFA_F_TENTATIVE = 0x40;

    /** Mutable form of an {@link InterfaceInfo} while merging the sources. */
    private static final class Entry {
        final String name;
        int index = -1;
        boolean up;
        boolean loopback;
        int mtu = -1;
        final List<LocalInterface.Address> addresses = new ArrayList<>();

        Entry(String name) {
            this.name = name;
        }
    }

    /**
     * Every interface with at least one address, up or down, in the order the system lists them.
     *
     * @throws IOException if the system refuses to list them
     */
    public static List<InterfaceInfo> list() throws IOException {
        Optional<Set<String>> names = threadInterfaceNames();
        Optional<List<String[]>> v6 = threadIpv6Lines();
        Map<String, Entry> out = new LinkedHashMap<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (names.isPresent() && !names.get().contains(ni.getName())) {
                    continue; // listed from the process's namespace, not the thread's
                }
                Entry e = new Entry(ni.getName());
                try {
                    e.index = ni.getIndex();
                    e.up = ni.isUp();
                    e.loopback = ni.isLoopback();
                    e.mtu = ni.getMTU();
                } catch (SocketException ex) {
                    continue; // vanished meanwhile, or not in this namespace
                }
                for (InterfaceAddress ia : ni.getInterfaceAddresses()) {
                    InetAddress a = ia.getAddress();
                    if (a == null || (v6.isPresent() && a instanceof Inet6Address)) {
                        continue;
                    }
                    int max = a.getAddress().length * 8;
                    int prefix = ia.getNetworkPrefixLength();
                    e.addresses.add(new LocalInterface.Address(a, prefix < 0 || prefix > max ? max : prefix));
                }
                out.put(e.name, e);
            }
        } catch (SocketException e) {
            throw new IOException("cannot list the network interfaces: " + e.getMessage(), e);
        }
        if (v6.isPresent()) {
            for (String[] f : v6.get()) {
                addIpv6(out, f);
            }
        }
        List<InterfaceInfo> list = new ArrayList<>(out.size());
        for (Entry e : out.values()) {
            if (!e.addresses.isEmpty()) {
                list.add(new InterfaceInfo(e.name, e.index, e.up, e.loopback, e.mtu, e.addresses));
            }
        }
        return list;
    }

    /** One line of if_inet6: address, ifindex, prefix length, scope, flags, name (hex but the name). */
    private static void addIpv6(Map<String, Entry> out, String[] f) {
        if (f.length < 6 || f[0].length() != 32) {
            return;
        }
        try {
            byte[] b = new byte[16];
            for (int i = 0; i < 16; i++) {
                b[i] = (byte) Integer.parseInt(f[0].substring(2 * i, 2 * i + 2), 16);
            }
            int index = Integer.parseInt(f[1], 16);
            int prefix = Integer.parseInt(f[2], 16);
            int flags = Integer.parseInt(f[4], 16);
            if ((flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED)) != 0 || prefix > 128) {
                return;
            }
            boolean linkLocal = (b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80;
            InetAddress a = Inet6Address.getByAddress(null, b, linkLocal ? index : -1);
            Entry e = out.computeIfAbsent(f[5], n -> {
                Entry x = new Entry(n);
                x.index = index;
                x.up = true; // it has a usable IPv6 address: not administratively down
                return x;
            });
            if (a.isLoopbackAddress()) {
                e.loopback = true;
            }
            e.addresses.add(new LocalInterface.Address(a, prefix));
        } catch (NumberFormatException | UnknownHostException ex) {
            // a line in an unknown format: skip it
        }
    }

    /** The interface names of the calling thread's namespace (Linux), if readable. */
    private static Optional<Set<String>> threadInterfaceNames() {
        Optional<List<String>> lines = read(THREAD_NET.resolve("dev"));
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        Set<String> names = new LinkedHashSet<>();
        for (String l : lines.get()) {
            int colon = l.indexOf(':');
            if (colon > 0) {
                names.add(l.substring(0, colon).strip());
            }
        }
        return Optional.of(names);
    }

    /** The lines of the calling thread's if_inet6 (Linux), split on blanks, if readable. */
    private static Optional<List<String[]>> threadIpv6Lines() {
        Optional<List<String>> lines = read(THREAD_NET.resolve("if_inet6"));
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        List<String[]> out = new ArrayList<>();
        for (String l : lines.get()) {
            String s = l.strip();
            if (!s.isEmpty()) {
                out.add(s.split("\\s+"));
            }
        }
        return Optional.of(out);
    }

    private static Optional<List<String>> read(Path p) {
        try {
            return Optional.of(Files.readAllLines(p, StandardCharsets.US_ASCII));
        } catch (NoSuchFileException e) {
            return Optional.empty(); // not Linux, or IPv6 disabled
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /**
     * The interfaces that are up, as the core's address selection takes them: pass to {@code
     * Endpoint.setAddressPolicy} or an {@link org.sctpj.stack.addr.AddressSelector}.
     */
    public static List<LocalInterface> localInterfaces() throws IOException {
        List<LocalInterface> out = new ArrayList<>();
        for (InterfaceInfo i : list()) {
            if (i.up()) {
                out.add(i.toLocalInterface());
            }
        }
        return out;
    }

    /** The addresses of the interfaces that are up. */
    public static List<LocalInterface.Address> upAddresses() throws IOException {
        List<LocalInterface.Address> out = new ArrayList<>();
        for (InterfaceInfo i : list()) {
            if (i.up()) {
                out.addAll(i.addresses());
            }
        }
        return out;
    }

    /** The addresses of the interfaces that are up whose class is one of {@code classes}. */
    public static List<InetAddress> addresses(Set<AddressClass> classes) throws IOException {
        Set<AddressClass> wanted = classes.isEmpty() ? EnumSet.noneOf(AddressClass.class) : EnumSet.copyOf(classes);
        List<InetAddress> out = new ArrayList<>();
        for (LocalInterface.Address a : upAddresses()) {
            if (wanted.contains(a.addressClass())) {
                out.add(a.address());
            }
        }
        return out;
    }

    /** The interface that holds {@code address}, if any. */
    public static Optional<InterfaceInfo> owning(InetAddress address) throws IOException {
        for (InterfaceInfo i : list()) {
            for (LocalInterface.Address a : i.addresses()) {
                if (sameAddress(a.address(), address)) {
                    return Optional.of(i);
                }
            }
        }
        return Optional.empty();
    }

    private static boolean sameAddress(InetAddress a, InetAddress b) {
        if (a instanceof Inet4Address || b instanceof Inet4Address) {
            return a.equals(b);
        }
        return java.util.Arrays.equals(a.getAddress(), b.getAddress());
    }
}
