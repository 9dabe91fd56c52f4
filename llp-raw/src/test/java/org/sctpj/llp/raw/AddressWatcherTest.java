package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The netlink address messages {@link AddressWatcher} reads, built by hand (no socket, no root). */
class AddressWatcherTest {

    /** One RTM_NEWADDR/RTM_DELADDR message: nlmsghdr, ifaddrmsg, then IFA_* attributes. */
    static final class Msg {
        final ByteBuffer b = ByteBuffer.allocate(256).order(ByteOrder.nativeOrder());
        final int start;

        Msg(ByteBuffer into, int type, int family, int flags, int scope, int index) {
            start = into.position();
            into.putInt(0).putShort((short) type).putShort((short) 0).putInt(1).putInt(0);
            into.put((byte) family)
                    .put((byte) 24)
                    .put((byte) flags)
                    .put((byte) scope)
                    .putInt(index);
        }
    }

    static ByteBuffer buffer() {
        return ByteBuffer.allocate(4096).order(ByteOrder.nativeOrder());
    }

    static void attr(ByteBuffer b, int type, byte[] v) {
        b.putShort((short) (4 + v.length)).putShort((short) type).put(v);
        while (b.position() % 4 != 0) {
            b.put((byte) 0);
        }
    }

    static void end(ByteBuffer b, Msg m) {
        b.putInt(m.start, b.position() - m.start);
    }

    static byte[] ip(String s) throws Exception {
        return InetAddress.getByName(s).getAddress();
    }

    static List<AddressWatcher.Change> parse(ByteBuffer b, boolean v4, boolean v6) {
        List<AddressWatcher.Change> out = new ArrayList<>();
        AddressWatcher.parse(b, b.position(), v4, v6, out::add);
        return out;
    }

    @Test
    void newAndDeletedAddressesOfBothFamilies() throws Exception {
        ByteBuffer b = buffer();
        Msg m = new Msg(b, AddressWatcher.RTM_NEWADDR, 2, 0, 0, 3);
        attr(b, AddressWatcher.IFA_ADDRESS, ip("10.9.0.1"));
        attr(b, AddressWatcher.IFA_LOCAL, ip("10.9.0.1"));
        end(b, m);
        m = new Msg(b, AddressWatcher.RTM_DELADDR, 10, 0, 0, 4);
        attr(b, AddressWatcher.IFA_ADDRESS, ip("fd00::9"));
        end(b, m);
        assertEquals(
                List.of(
                        new AddressWatcher.Change(InetAddress.getByName("10.9.0.1"), true, 3),
                        new AddressWatcher.Change(InetAddress.getByName("fd00::9"), false, 4)),
                parse(b, true, true));
    }

    @Test
    void pointToPointTakesTheLocalAddressNotThePeers() throws Exception {
        ByteBuffer b = buffer();
        Msg m = new Msg(b, AddressWatcher.RTM_NEWADDR, 2, 0, 0, 5);
        attr(b, AddressWatcher.IFA_ADDRESS, ip("10.9.0.2"));
        attr(b, AddressWatcher.IFA_LOCAL, ip("10.9.0.1"));
        end(b, m);
        assertEquals(
                InetAddress.getByName("10.9.0.1"), parse(b, true, true).get(0).address());
    }

    @Test
    void unusableOrUnwantedAddressesAreLeftOut() throws Exception {
        ByteBuffer b = buffer();
        Msg m = new Msg(b, AddressWatcher.RTM_NEWADDR, 10, AddressWatcher.IFA_F_TENTATIVE, 0, 1);
        attr(b, AddressWatcher.IFA_ADDRESS, ip("fd00::1")); // still under DAD
        end(b, m);
        m = new Msg(b, AddressWatcher.RTM_NEWADDR, 10, 0, 0, 1);
        attr(b, AddressWatcher.IFA_ADDRESS, ip("fd00::2"));
        attr(b, AddressWatcher.IFA_FLAGS, new byte[] {(byte) AddressWatcher.IFA_F_TENTATIVE, 0, 0, 0}); // 32-bit flags
        end(b, m);
        m = new Msg(b, AddressWatcher.RTM_NEWADDR, 10, 0, AddressWatcher.RT_SCOPE_LINK, 1);
        attr(b, AddressWatcher.IFA_ADDRESS, ip("fe80::1"));
        end(b, m);
        m = new Msg(b, AddressWatcher.RTM_NEWADDR, 2, 0, AddressWatcher.RT_SCOPE_HOST, 1);
        attr(b, AddressWatcher.IFA_LOCAL, ip("127.0.0.1"));
        end(b, m);
        m = new Msg(b, AddressWatcher.RTM_NEWADDR, 2, 0, 0, 1);
        attr(b, AddressWatcher.IFA_LOCAL, ip("10.9.0.7")); // IPv4 not watched below
        end(b, m);
        m = new Msg(b, 16, 2, 0, 0, 1); // RTM_NEWLINK: not an address message
        end(b, m);
        assertEquals(List.of(), parse(b, false, true));
        // once DAD ended the address is reported
        ByteBuffer c = buffer();
        m = new Msg(c, AddressWatcher.RTM_NEWADDR, 10, 0, 0, 1);
        attr(c, AddressWatcher.IFA_ADDRESS, ip("fd00::1"));
        end(c, m);
        assertEquals(1, parse(c, false, true).size());
    }

    @Test
    void truncatedOrLyingLengthsEndTheParseWithoutThrowing() throws Exception {
        ByteBuffer b = buffer();
        Msg m = new Msg(b, AddressWatcher.RTM_NEWADDR, 2, 0, 0, 1);
        attr(b, AddressWatcher.IFA_LOCAL, ip("10.9.0.3"));
        end(b, m);
        int good = b.position();
        Msg bad = new Msg(b, AddressWatcher.RTM_NEWADDR, 2, 0, 0, 1);
        b.putShort((short) 200)
                .putShort((short) AddressWatcher.IFA_LOCAL)
                .put(ip("10.9.0.4")); // attribute past the end
        end(b, bad);
        assertEquals(1, parse(b, true, true).size(), "the first message, then the bad attribute is ignored");
        b.putInt(good, 100_000); // a message length past the buffer: the first one only
        assertEquals(1, parse(b, true, true).size());
        b.putInt(0, 3); // shorter than a header
        assertEquals(0, parse(b, true, true).size());
    }
}
