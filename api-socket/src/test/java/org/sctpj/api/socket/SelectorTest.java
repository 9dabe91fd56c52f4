package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.SctpChannel;
import com.sun.nio.sctp.SctpServerChannel;
import com.sun.nio.sctp.SctpStandardSocketOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.IllegalSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Non-blocking channels on sctpj's selectors, written as a {@code com.sun.nio.sctp} program would
 * be (JDK types, JDK option constants): readiness for accept, connect, read and write, wakeup,
 * selectNow, cancelled keys and closing a registered channel.
 */
@Timeout(60)
class SelectorTest extends LoopbackStacksTest {

    SctpServerChannel server() throws IOException {
        SctpServerChannel s = serverP.openServerChannel();
        stacks.later(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(LO, 0));
        return s;
    }

    SctpChannel client(SctpServerChannel s) throws IOException {
        SctpChannel c =
                clientP.withUdpPorts(0, ((SctpjServerChannel) s).udpPort()).openSctpChannel();
        stacks.later(c);
        return c;
    }

    Selector selector(SctpProvider p) throws IOException {
        Selector sel = p.openSelector();
        stacks.later(sel);
        return sel;
    }

    static InetSocketAddress addr(SctpServerChannel s) throws IOException {
        return (InetSocketAddress) s.getAllLocalAddresses().iterator().next();
    }

    /** Selects until a key with {@code op} ready comes, at most 10 s. */
    static SelectionKey await(Selector sel, int op) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            sel.select(1000);
            for (SelectionKey k : sel.selectedKeys()) {
                if ((k.readyOps() & op) != 0) {
                    sel.selectedKeys().remove(k);
                    return k;
                }
            }
            sel.selectedKeys().clear();
        }
        throw new AssertionError("no key became ready for " + op);
    }

    @Test
    void acceptConnectReadAndWriteReadinessAsNioDescribesThem() throws Exception {
        SctpServerChannel s = server();
        s.configureBlocking(false);
        Selector ss = selector(serverP);
        SelectionKey acceptKey = s.register(ss, SelectionKey.OP_ACCEPT);
        assertEquals(SelectionKey.OP_ACCEPT, s.validOps());
        assertEquals(0, ss.selectNow(), "nothing to accept yet");
        assertNull(s.accept(), "non-blocking accept with nothing waiting");

        SctpChannel c = client(s);
        c.configureBlocking(false);
        Selector cs = selector(clientP);
        SelectionKey ck = c.register(cs, SelectionKey.OP_CONNECT);
        assertFalse(c.connect(addr(s)), "a non-blocking connect returns at once");
        assertTrue(c.isConnectionPending());
        assertSame(ck, await(cs, SelectionKey.OP_CONNECT));
        assertNull(c.association(), "no association until finishConnect, as in the JDK");
        assertTrue(c.finishConnect());
        assertFalse(c.isConnectionPending());
        assertNotNull(c.association());

        assertSame(acceptKey, await(ss, SelectionKey.OP_ACCEPT));
        SctpChannel a = s.accept();
        assertNotNull(a);
        stacks.later(a);
        assertNull(s.accept(), "one association, one accept");
        a.configureBlocking(false);
        SelectionKey rk = a.register(ss, SelectionKey.OP_READ);
        ByteBuffer buf = ByteBuffer.allocate(1000);
        // COMM_UP is queued for the accepted channel: readable until the handler has taken it
        await(ss, SelectionKey.OP_READ);
        assertNull(a.receive(buf, null, null), "only the notification was queued");
        assertEquals(0, ss.selectNow(), "nothing more to read");

        ck.interestOps(SelectionKey.OP_WRITE);
        assertSame(ck, await(cs, SelectionKey.OP_WRITE));
        MessageInfo out = MessageInfo.createOutgoing(null, 2).payloadProtocolID(77);
        assertEquals(5, c.send(ByteBuffer.wrap("hello".getBytes()), out));
        assertSame(rk, await(ss, SelectionKey.OP_READ));
        MessageInfo in = a.receive(buf, null, null);
        assertEquals(5, in.bytes());
        assertEquals(2, in.streamNumber());
        assertEquals(77, in.payloadProtocolID());
        assertNull(a.receive(buf, null, null), "non-blocking receive with nothing queued");
    }

    @Test
    void aFullSendBufferIsNotWritableUntilThePeerReadsAgain() throws Exception {
        SctpServerChannel s = serverP.openServerChannel();
        stacks.later(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.setOption(SctpStandardSocketOptions.SO_RCVBUF, 64 << 10);
        s.bind(new InetSocketAddress(LO, 0));
        SctpChannel c = client(s);
        c.setOption(SctpStandardSocketOptions.SO_SNDBUF, 64 << 10);
        assertTrue(c.connect(addr(s)));
        SctpChannel a = s.accept();
        stacks.later(a);
        c.configureBlocking(false);
        Selector cs = selector(clientP);
        SelectionKey wk = c.register(cs, SelectionKey.OP_WRITE);
        ByteBuffer m = ByteBuffer.allocate(8000);
        int sent = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        // Fill the send buffer; SACKs of what was in flight free some room again (the key becomes
        // writable), so fill again until a whole 300 ms passes without the key becoming writable:
        // then the peer's window is closed and everything waits in our buffer.
        int rounds = 0;
        do {
            cs.selectedKeys().clear();
            while (c.send(m.clear(), null) > 0) {
                sent++;
            }
            rounds++;
            assertTrue(System.nanoTime() < deadline, "the send buffer never stayed full");
        } while (cs.select(300) > 0);
        assertTrue(sent >= 8, "the windows hold some messages: " + sent);
        assertTrue(rounds < 50, "rounds " + rounds);
        CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() -> {
            ByteBuffer b = ByteBuffer.allocate(8000);
            try {
                int n = 0;
                while (((SctpjChannel) a).receive(b.clear(), null, null, Duration.ofMillis(500)) != null) {
                    n++;
                }
                return n;
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        assertSame(wk, await(cs, SelectionKey.OP_WRITE), "the peer read: space came back");
        assertTrue(c.send(m.clear(), null) > 0);
        assertEquals(sent + 1, reader.get(20, TimeUnit.SECONDS));
    }

    @Test
    void aBranchTakesItsWaitForSendSpaceAlong() throws Exception {
        // The peer: a server whose accepted channel does not read, so our sends fill up.
        SctpServerChannel s = serverP.openServerChannel();
        stacks.later(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.setOption(SctpStandardSocketOptions.SO_RCVBUF, 64 << 10);
        s.bind(new InetSocketAddress(LO, 0));
        SctpjMultiChannel m = stacks.later(clientP.openMultiChannel());
        m.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0, null);
        m.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, ((SctpjServerChannel) s).udpPort(), null);
        m.setOption(SctpStandardSocketOptions.SO_SNDBUF, 64 << 10, null);
        m.bind(new InetSocketAddress(LO, 0));
        ByteBuffer msg = ByteBuffer.allocate(8000);
        m.send(msg, MessageInfo.createOutgoing(addr(s), 0));
        stacks.later(s.accept());
        com.sun.nio.sctp.Association a = m.associations().iterator().next();
        m.configureBlocking(false);
        Selector sel = selector(clientP);
        SelectionKey k = m.register(sel, SelectionKey.OP_WRITE);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        do {
            sel.selectedKeys().clear();
            while (m.send(msg.clear(), MessageInfo.createOutgoing(a, null, 0)) > 0) {
                assertTrue(System.nanoTime() < deadline, "the send buffer never filled");
            }
        } while (sel.select(300) > 0);
        SctpChannel b = stacks.later(m.branch(a));
        sel.selectedKeys().clear();
        assertEquals(1, sel.select(2000), "with its only association branched off, the channel can send again");
        assertSame(k, sel.selectedKeys().iterator().next());
        b.configureBlocking(false);
        SelectionKey bk = b.register(sel, SelectionKey.OP_WRITE);
        sel.selectedKeys().clear();
        sel.select(300);
        assertFalse(sel.selectedKeys().contains(bk), "the branch still waits for room");
    }

    @Test
    void wakeupSelectNowCancelAndCloseBehaveAsInNio() throws Exception {
        Selector sel = selector(serverP);
        sel.wakeup();
        long t0 = System.nanoTime();
        assertEquals(0, sel.select(), "a wakeup before select makes it return at once");
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(2));
        CompletableFuture<Integer> blocked = CompletableFuture.supplyAsync(() -> {
            try {
                return sel.select();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        Thread.sleep(100);
        assertFalse(blocked.isDone(), "select waits while nothing is ready");
        sel.wakeup();
        assertEquals(0, blocked.get(5, TimeUnit.SECONDS));

        SctpServerChannel s = server();
        assertThrows(IllegalBlockingModeException.class, () -> s.register(sel, SelectionKey.OP_ACCEPT));
        s.configureBlocking(false);
        assertThrows(IllegalArgumentException.class, () -> s.register(sel, SelectionKey.OP_READ));
        SelectionKey k = s.register(sel, SelectionKey.OP_ACCEPT, "att");
        assertEquals("att", k.attachment());
        assertSame(k, s.keyFor(sel));
        assertEquals(1, sel.keys().size());
        k.cancel();
        assertThrows(CancelledKeyException.class, k::interestOps);
        sel.selectNow();
        assertEquals(0, sel.keys().size(), "a cancelled key leaves at the next selection");
        assertNull(s.keyFor(sel));

        SelectionKey k2 = s.register(sel, SelectionKey.OP_ACCEPT);
        s.close();
        assertFalse(k2.isValid(), "closing a registered channel cancels its keys");
        sel.selectNow();
        assertTrue(sel.keys().isEmpty());

        SocketChannel tcp = SocketChannel.open();
        tcp.configureBlocking(false);
        assertThrows(IllegalSelectorException.class, () -> tcp.register(sel, SelectionKey.OP_CONNECT));
        tcp.close();
        assertThrows(UnsupportedOperationException.class, serverP::openSocketChannel);
        sel.close();
        assertThrows(java.nio.channels.ClosedSelectorException.class, sel::selectNow);
    }
}
