package org.sctpj.bench.scale;

import com.sun.nio.sctp.AbstractNotificationHandler;
import com.sun.nio.sctp.AssociationChangeNotification;
import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.SctpMultiChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjMultiChannel;

/**
 * The socket API's server of the scale benchmarks ({@code ScaleServer selector}): one
 * non-blocking {@link SctpMultiChannel} (the JDK's one-to-many channel, on sctpj) bound to
 * 127.0.0.1:5000 over UDP encapsulation, served by one selector thread that reads each message and
 * sends it back on its association, counting associations up and ended from the notifications. The
 * stack-thread CPU it reports is that of the stack threads and the selector thread together.
 */
final class SelectorServer {
    private SelectorServer() {}

    static void run(InetAddress host, int shards) throws Exception {
        try (CallbackRuntime rt = CallbackRuntime.start(shards, "scale-server").withShardsPerSocket(shards)) {
            SctpProvider sp = SctpProvider.of(rt, ScaleServer.OPTIONS).withUdpPorts(0, 9899);
            SctpMultiChannel multi = sp.openMultiChannel();
            multi.bind(new InetSocketAddress(host, 5000));
            multi.configureBlocking(false);
            Selector sel = sp.openSelector();
            multi.register(sel, SelectionKey.OP_READ);
            List<Thread> threads = new CopyOnWriteArrayList<>();
            CountDownLatch named = new CountDownLatch(shards);
            for (org.sctpj.timers.StackThread t : rt.stackRuntime().threads()) {
                t.execute(() -> {
                    threads.add(Thread.currentThread());
                    named.countDown();
                });
            }
            named.await();
            int[] live = {0};
            Thread loop = new Thread(() -> serve(sel, multi, live), "scale-selector");
            loop.setDaemon(true);
            threads.add(loop);
            ScaleServer.stackThreads(new ArrayList<>(threads));
            loop.start();
            System.out.println("READY sctp=5000 udp=" + ((SctpjMultiChannel) multi).udpPort());
            System.out.flush();
            ScaleServer.serve(() -> live[0]);
            sel.close();
            multi.close();
        }
    }

    /** The selector thread: read, count, echo; a send that finds no room drops the echo (counted as refused). */
    private static void serve(Selector sel, SctpMultiChannel multi, int[] live) {
        ByteBuffer buf = ByteBuffer.allocateDirect(65536);
        AbstractNotificationHandler<int[]> notes = new AbstractNotificationHandler<>() {
            @Override
            public HandlerResult handleNotification(AssociationChangeNotification n, int[] l) {
                switch (n.event()) {
                    case COMM_UP -> {
                        l[0]++;
                        ScaleServer.count(true, false, false);
                    }
                    case COMM_LOST, SHUTDOWN, CANT_START -> {
                        l[0]--;
                        ScaleServer.count(false, true, false);
                    }
                    default -> {}
                }
                return HandlerResult.CONTINUE;
            }
        };
        try {
            while (sel.isOpen()) {
                sel.select();
                sel.selectedKeys().clear();
                MessageInfo mi;
                while ((mi = multi.receive(buf.clear(), live, notes)) != null) {
                    if (mi.bytes() <= 0) {
                        continue;
                    }
                    ScaleServer.count(false, false, true);
                    buf.flip();
                    MessageInfo out = MessageInfo.createOutgoing(mi.association(), null, mi.streamNumber())
                            .payloadProtocolID(mi.payloadProtocolID());
                    multi.send(buf, out);
                }
            }
        } catch (IOException | java.nio.channels.ClosedSelectorException e) {
            // closed at QUIT
        }
    }
}
