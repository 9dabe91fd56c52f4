package org.sctpj.tests.core;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import org.sctpj.sim.EndpointNode;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

/**
 * A message workload from A to Z with exact checking: each message's PPID is its index (plus {@link #PPID_BASE}), its bytes
 * are a function of the index, so Z can tell lost, duplicated, corrupted and misordered messages
 * apart. A sends whenever the association comes up or send space frees; Z checks every delivery.
 */
final class Transfer {
    /**
     * PPIDs are this plus the message index: far above the IANA-assigned values, so packet
     * decoders (tshark) do not take the payload for another protocol.
     */
    static final int PPID_BASE = 0x10000000;

    record Msg(int index, int stream, boolean unordered, int size) {}

    final List<Msg> plan = new ArrayList<>();
    private int nextToSend;
    private final BitSet delivered = new BitSet();
    /** Messages the sender reported back as failed (SEND_FAILED: abandoned by a PR-SCTP policy). */
    final BitSet abandoned = new BitSet();
    /** How each message is sent; a matrix variant may give some messages a PR-SCTP policy. */
    Function<Msg, SendInfo> sendInfo = m -> new SendInfo(m.stream(), PPID_BASE + m.index(), m.unordered(), false);

    private final Map<Integer, Integer> lastOrderedIndex = new HashMap<>();
    /** Messages being delivered in parts, by stream. */
    private final Map<Integer, ByteArrayOutputStream> parts = new HashMap<>();
    /** Messages that came in parts. */
    long partedMessages;

    long deliveredCount;
    long duplicated;
    long misordered;
    long corrupted;
    long lastDeliveryNanos;
    private AssociationId senderAssoc;
    /** A stops sending new messages after this time (continuous transfers). */
    long sendUntilNanos = Long.MAX_VALUE;

    private boolean stopped;
    private EndpointNode receiver;
    /** When set, every delivered message's bytes are added to it at the receiver's time. */
    Series series;

    /** {@code count} messages of {@code size} bytes over {@code streams} streams. */
    Transfer(long seed, int count, int size, int streams, boolean unordered) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            plan.add(new Msg(i, r.nextInt(streams), unordered, size));
        }
    }

    /** One message per entry of {@code sizes}, of that many bytes, over {@code streams} streams. */
    Transfer(long seed, int[] sizes, int streams, boolean unordered) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < sizes.length; i++) {
            plan.add(new Msg(i, r.nextInt(streams), unordered, sizes[i]));
        }
    }

    static byte[] content(int index, int size) {
        byte[] b = new byte[size];
        int x = index * 0x9E3779B9 + 7;
        for (int i = 0; i < size; i++) {
            x = x * 1103515245 + 12345;
            b[i] = (byte) (x >>> 24);
        }
        return b;
    }

    /** Wires the workload to the pair's event listeners. */
    Transfer attach(CorePair p) {
        return attach(p.a, p.z);
    }

    /** Wires the workload to a sender node and a receiver node. */
    Transfer attach(EndpointNode a, EndpointNode z) {
        a.keepEvents(true).onEvent(e -> onSenderEvent(a, e));
        z.keepEvents(false).onEvent(this::onReceiverEvent);
        receiver = z;
        return this;
    }

    /**
     * The sending side's part, for a node that also does other things with its events (both
     * directions at once, a shutdown right after the sends): hand it each of {@code a}'s events.
     */
    Consumer<SctpEvent> senderPart(EndpointNode a) {
        return e -> onSenderEvent(a, e);
    }

    /** The receiving side's part: hand it each of {@code z}'s events. */
    Consumer<SctpEvent> receiverPart(EndpointNode z) {
        receiver = z;
        return this::onReceiverEvent;
    }

    private void onSenderEvent(EndpointNode a, SctpEvent e) {
        if (e instanceof SctpEvent.AssociationChange c
                && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
            senderAssoc = c.association();
            pump(a);
        } else if (e instanceof SctpEvent.SendSpaceAvailable) {
            pump(a);
        } else if (e instanceof SctpEvent.SendFailed f
                && f.ppid() - PPID_BASE >= 0
                && f.ppid() - PPID_BASE < plan.size()) {
            abandoned.set(f.ppid() - PPID_BASE);
        }
    }

    void pump(EndpointNode a) {
        if (a.now() >= sendUntilNanos) {
            stopped = true;
            return;
        }
        while (senderAssoc != null && nextToSend < plan.size()) {
            Msg m = plan.get(nextToSend);
            SendStatus s = a.endpoint()
                    .send(senderAssoc, sendInfo.apply(m), ByteBuffer.wrap(content(m.index(), m.size())), a.now());
            if (s == SendStatus.WOULD_BLOCK) {
                return;
            }
            nextToSend++;
        }
    }

    private void onReceiverEvent(SctpEvent e) {
        if (e instanceof SctpEvent.MessagePart part) {
            onPart(part);
            return;
        }
        if (e instanceof SctpEvent.PartialDeliveryAborted aborted) {
            // Its last part will never come (a PR-SCTP policy abandoned it, or the association
            // ended): the parts gathered are not a message (RFC 6458 6.1.7).
            parts.remove(aborted.streamId());
            return;
        }
        if (!(e instanceof SctpEvent.MessageReceived m)) {
            return;
        }
        if (parts.containsKey(m.streamId())) {
            misordered++; // RFC 9260 6.9 as sctpj documents it: nothing else of a stream between its parts
        }
        onMessage(m);
    }

    /**
     * A part of a message delivered in parts (partial delivery): gathered per stream (one message
     * per stream at a time) and checked like a whole message after the last part.
     */
    private void onPart(SctpEvent.MessagePart part) {
        ByteArrayOutputStream g = parts.computeIfAbsent(part.streamId(), k -> new ByteArrayOutputStream());
        g.writeBytes(part.data());
        if (part.last()) {
            parts.remove(part.streamId());
            partedMessages++;
            onMessage(new SctpEvent.MessageReceived(
                    part.association(), part.streamId(), part.ppid(), part.unordered(), g.toByteArray()));
        }
    }

    private void onMessage(SctpEvent.MessageReceived m) {
        int idx = m.ppid() - PPID_BASE;
        if (idx < 0 || idx >= plan.size()) {
            corrupted++;
            return;
        }
        Msg want = plan.get(idx);
        if (delivered.get(idx)) {
            duplicated++;
            return;
        }
        delivered.set(idx);
        deliveredCount++;
        if (series != null) {
            series.add(receiver.now(), m.data().length);
        }
        if (m.streamId() != want.stream()
                || m.unordered() != want.unordered()
                || !Arrays.equals(m.data(), content(idx, want.size()))) {
            corrupted++;
        }
        if (!want.unordered()) {
            Integer last = lastOrderedIndex.get(want.stream());
            if (last != null && last > idx) {
                misordered++;
            }
            lastOrderedIndex.put(want.stream(), idx);
        }
    }

    boolean allSent() {
        return nextToSend == plan.size();
    }

    /** Every message that was sent has been delivered or abandoned, and sending is over. */
    boolean complete() {
        return (allSent() || stopped) && deliveredCount + abandonedUndelivered() == nextToSend;
    }

    /** Messages sent but neither delivered nor abandoned (all of the plan once it was all sent). */
    long lost() {
        return (stopped ? nextToSend : plan.size()) - deliveredCount - abandonedUndelivered();
    }

    /** Messages the sender abandoned that the receiver never got. */
    long abandonedUndelivered() {
        if (abandoned.isEmpty()) {
            return 0;
        }
        BitSet b = (BitSet) abandoned.clone();
        b.andNot(delivered);
        return b.cardinality();
    }

    int sent() {
        return nextToSend;
    }

    /** The association A sends on. */
    AssociationId senderAssociation() {
        return senderAssoc;
    }
}
