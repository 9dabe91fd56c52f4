package org.sctpj.tests.interop;

import java.io.ByteArrayOutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;

/**
 * Puts messages delivered in parts back together for the interop checks: partial delivery (RFC
 * 9260 section 6.9, RFC 6458 section 8.1.21) hands a large message over in parts, in order, the
 * last one flagged, possibly interleaved with messages of other streams. The parts are
 * concatenated per association and stream until the last, which yields the whole message as a
 * {@link SctpEvent.MessageReceived}, so that a case checks it exactly like one delivered whole.
 *
 * <p>Used on one thread (the stack thread); {@link #describe()} may be called from any.
 */
final class MessageParts {

    /** One part: the core's {@link SctpEvent.MessagePart}. */
    record Part(AssociationId association, int streamId, int ppid, boolean unordered, byte[] data, boolean last) {
        /** The part {@code e} is, if it is a {@link SctpEvent.MessagePart}; empty otherwise. */
        static Optional<Part> of(Object e) {
            if (!(e instanceof SctpEvent.MessagePart m)) {
                return Optional.empty();
            }
            return Optional.of(new Part(m.association(), m.streamId(), m.ppid(), m.unordered(), m.data(), m.last()));
        }
    }

    private static final class Partial {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int parts;
        int ppid;
        boolean unordered;
    }

    private final Map<String, Partial> open = new LinkedHashMap<>();
    private long partsReceived;
    private long bytesReceived;
    private String unfinished = "";

    /**
     * Adds a part; returns the whole message when {@code p} is its last part, else null.
     *
     * @throws AssertionError when a part's PPID or U flag differs from its message's first part
     */
    SctpEvent.MessageReceived add(Part p) {
        String key = p.association() + " stream " + p.streamId();
        Partial m = open.computeIfAbsent(key, k -> new Partial());
        if (m.parts == 0) {
            m.ppid = p.ppid();
            m.unordered = p.unordered();
        } else if (m.ppid != p.ppid() || m.unordered != p.unordered()) {
            throw new AssertionError("part " + (m.parts + 1) + " on " + key + " has PPID " + p.ppid() + " U="
                    + p.unordered() + ", its message's first part PPID " + m.ppid + " U=" + m.unordered);
        }
        m.bytes.writeBytes(p.data());
        m.parts++;
        SctpEvent.MessageReceived whole = null;
        if (p.last()) {
            open.remove(key);
            whole = new SctpEvent.MessageReceived(
                    p.association(), p.streamId(), p.ppid(), p.unordered(), m.bytes.toByteArray());
        }
        StringBuilder sb = new StringBuilder();
        open.forEach((k, x) -> sb.append(' ')
                .append(k)
                .append(": ")
                .append(x.parts)
                .append(" parts, ")
                .append(x.bytes.size())
                .append(" bytes;"));
        synchronized (this) {
            partsReceived++;
            bytesReceived += p.data().length;
            unfinished = sb.toString();
        }
        return whole;
    }

    /** Parts and bytes received in parts so far, and the messages not finished yet. */
    synchronized String describe() {
        return partsReceived + " message parts received (" + bytesReceived + " bytes)"
                + (unfinished.isEmpty() ? "" : "; unfinished:" + unfinished);
    }
}
