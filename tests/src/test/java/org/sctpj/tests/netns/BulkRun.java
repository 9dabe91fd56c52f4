package org.sctpj.tests.netns;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.addr.AddressPolicy;

/**
 * A bulk transfer from host A to host Z of a {@link MultiPathBed} through the real stack: raw IP
 * in each namespace, one stack thread per host, address policies from the interfaces discovered in
 * each namespace. A keeps its send buffer full of numbered messages of one packet each on one ordered
 * stream (refilled on every send-space event); Z checks each message's number and content as it
 * arrives, so a loss, duplicate, reordering or corruption is seen at once.
 */
final class BulkRun implements AutoCloseable {
    /** The message size: one message fills one packet of the bed's MTU (1,400 bytes at MTU 1500). */
    final int message;

    final NetnsHost a;
    final NetnsHost z;
    final AssociationId id;
    final AtomicLong deliveredMessages = new AtomicLong();
    final AtomicLong deliveredBytes = new AtomicLong();
    final AtomicReference<String> error = new AtomicReference<>();
    private final ByteBuffer buf;
    private volatile boolean sending;
    /** Written on A's stack thread only. */
    private long sent;

    private BulkRun(NetnsHost a, NetnsHost z, AssociationId id, int message) {
        this.a = a;
        this.z = z;
        this.id = id;
        this.message = message;
        this.buf = ByteBuffer.allocate(message);
    }

    /**
     * Starts both hosts, connects A to {@code peers} (ranked by A's policy) and waits until the
     * association is up and every path A uses is confirmed.
     */
    static BulkRun open(MultiPathBed bed, SctpOptions o, int port, List<InetAddress> peers)
            throws IOException, InterruptedException {
        return open(bed, o, port, peers, false);
    }

    /** As above; {@code pathMtuProbing}: DF on every packet of both hosts (for path MTU discovery). */
    static BulkRun open(MultiPathBed bed, SctpOptions o, int port, List<InetAddress> peers, boolean pathMtuProbing)
            throws IOException, InterruptedException {
        NetnsHost z = NetnsHost.start("Z", bed.fileZ(), port, o, true, AddressPolicy::of, pathMtuProbing);
        NetnsHost a = null;
        try {
            a = NetnsHost.start("A", bed.fileA(), port, o, false, AddressPolicy::of, pathMtuProbing);
            AssociationId id = a.connect(peers, port);
            BulkRun r = new BulkRun(a, z, id, bed.mtu() - 100);
            z.hook = r::onZ;
            a.hook = r::onA;
            a.await(SctpEvent.AssociationChangeType.COMMUNICATION_UP, 5_000);
            a.awaitTrue(
                    ep -> ep.info(id).orElseThrow().paths().stream()
                            .allMatch(p -> p.status().equals("ACTIVE")),
                    5_000,
                    "every path confirmed");
            return r;
        } catch (IOException | RuntimeException | InterruptedException | AssertionError e) {
            if (a != null) {
                a.close();
            }
            z.close();
            throw e;
        }
    }

    private boolean onZ(SctpEvent e) {
        if (!(e instanceof SctpEvent.MessageReceived m)) {
            return false;
        }
        long k = deliveredMessages.get();
        if (error.get() == null && !matches(m.data(), k, message)) {
            error.set("message " + k + " missing, duplicated, out of order or corrupted (got number "
                    + (m.data().length >= 8 ? ByteBuffer.wrap(m.data()).getLong() : -1) + ")");
        }
        deliveredMessages.incrementAndGet();
        deliveredBytes.addAndGet(m.data().length);
        return true;
    }

    private boolean onA(SctpEvent e) {
        if (e instanceof SctpEvent.SendSpaceAvailable) {
            pump(a.handle.endpoint());
            return true;
        }
        return e instanceof SctpEvent.SenderDry;
    }

    private void pump(Endpoint ep) {
        long now = a.thread.now();
        while (sending) {
            fill(buf, sent, message);
            if (ep.send(id, SendInfo.DEFAULT, buf, now) != SendStatus.ACCEPTED) {
                return;
            }
            sent++;
        }
    }

    static void fill(ByteBuffer b, long k, int size) {
        b.clear();
        b.putLong(k);
        for (int j = 8; j < size; j++) {
            b.put((byte) (k * 131 + j * 7));
        }
        b.flip();
    }

    static boolean matches(byte[] d, long k, int size) {
        if (d.length != size || ByteBuffer.wrap(d).getLong() != k) {
            return false;
        }
        for (int j = 8; j < size; j++) {
            if (d[j] != (byte) (k * 131 + j * 7)) {
                return false;
            }
        }
        return true;
    }

    /** Starts sending (fills the send buffer; send-space events keep it full). */
    void startSending() {
        sending = true;
        a.execute(ep -> {
            ep.setSendThreshold(id, 256 * 1024);
            pump(ep);
        });
    }

    /**
     * Sends for {@code millis}, measures Z's goodput over the last {@code millis - settleMillis},
     * stops and waits until everything queued is delivered; returns the goodput in Mbit/s.
     */
    double slice(long millis, long settleMillis) throws InterruptedException {
        startSending();
        Thread.sleep(settleMillis);
        double mbps = measureMbps(millis - settleMillis);
        long total = stopSending();
        if (!awaitDelivered(total, 15_000)) {
            throw new AssertionError("delivered " + deliveredMessages + " of " + total + "; A: " + a.events + " "
                    + a.call(Endpoint::stats) + "; Z: " + z.call(Endpoint::stats) + " " + z.events);
        }
        return mbps;
    }

    /** Stops queueing new messages; returns how many were queued in all. */
    long stopSending() {
        sending = false;
        return a.call(ep -> sent);
    }

    /** Waits until Z has every message queued ({@link #stopSending} first); false on timeout. */
    boolean awaitDelivered(long total, long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (deliveredMessages.get() < total) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Goodput at Z in Mbit/s from now over {@code millis}. */
    double measureMbps(long millis) throws InterruptedException {
        long b0 = deliveredBytes.get();
        long t0 = System.nanoTime();
        Thread.sleep(millis);
        long b1 = deliveredBytes.get();
        long t1 = System.nanoTime();
        return (b1 - b0) * 8.0 * 1e3 / (t1 - t0);
    }

    /** A's view of the association. */
    AssociationInfo info() {
        return a.info(id);
    }

    @Override
    public void close() {
        sending = false;
        a.close();
        z.close();
    }
}
