package org.sctpj.journal;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.EventHandler;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.ReconfigRequestKind;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.Ecn;

/**
 * Feeds a journal into a fresh {@link Endpoint} on a virtual clock (each call gets the time it was
 * recorded with) and checks that every output is the same as recorded, byte for byte: each packet
 * {@code pollTransmit} gives (and its addresses), each event, message and send-space figure handed
 * out, in the same order and at the same point. The endpoint's random draws come from the journal.
 * Stops at the first difference and reports it with its context ({@link Difference}).
 *
 * <p>Calls the recorded endpoint's event handler made (a send from a callback) are made from the
 * replay's handler at the same point of the hand-out. Everything runs on the calling thread, so a
 * replay can be stepped through in a debugger: {@link #run(Path, Consumer)} hands out the endpoint
 * as soon as it is created.
 *
 * <p>A custom congestion controller factory (in the options) or address selector (in an address
 * policy) is recorded by its class name; the replay builds a new one with the class's public static
 * final {@code INSTANCE} field or its public no-arg constructor, so such a class must have one of
 * them (and be on the class path), or the replay is given a substitute for the name ({@link
 * #run(Path, Map)}, {@code replay --instance NAME=CLASS}); otherwise it stops with a one-line
 * difference saying so. A journal whose beginning was deleted by retention cannot be replayed: the
 * replay reports that as its difference.
 *
 * <p>A journal recorded with headers only (format 3 on) replays with zeros for the user data: each
 * message sent and the DATA of each packet received are zeros of their recorded lengths, each packet
 * received gets a checksum that holds (or a wrong one where the recorded endpoint found it wrong),
 * and the outputs are compared over what was recorded of them: the headers of each packet sent
 * (without its checksum), the length of each message. What the core does depends on no byte of user
 * data, so such a replay takes the same course, except for SCTP-AUTH, whose HMAC covers the DATA
 * chunks: a packet that authenticates DATA stops the replay, saying so. Headers-only journals of
 * formats 1 and 2 do not replay.
 */
public final class Replay implements EventHandler {

    private static final int CONTEXT = 6;

    private final Path dir;
    private final Consumer<Endpoint> onCreated;
    private final BiConsumer<JournalEntry, Endpoint> observer;
    private JournalReader cursor;
    private ReplayRandom random;
    private Endpoint endpoint;
    /** Outputs were recorded by digest ({@link JournalRecorder.Builder#digestOutputs}). */
    private boolean digests;
    /**
     * Recorded with headers only (format 3): messages and DATA are replayed as zeros of their
     * recorded lengths, and outputs compared over their headers and lengths.
     */
    private boolean headersOnly;
    /** The journal's format ({@link JournalRecorder#FORMAT}; 1 had no CLOSED entry). */
    private int format;
    /** The CLOSED entry was read: the journal is whole. */
    private boolean closedSeen;
    /** The journal ended without its CLOSED entry. */
    private boolean wasCut;

    private Difference difference;
    private final ArrayDeque<String> context = new ArrayDeque<>();
    private long entries;
    private long inputs;
    private long checked;

    private Replay(Path dir, Consumer<Endpoint> onCreated, BiConsumer<JournalEntry, Endpoint> observer) {
        this.dir = dir;
        this.onCreated = onCreated;
        this.observer = observer;
    }

    /** Replays the journal in {@code dir}. */
    public static ReplayResult run(Path dir) throws IOException {
        return run(dir, ep -> {});
    }

    /**
     * Replays the journal in {@code dir}, building the object {@code substitutes} gives for each
     * class name the journal holds in place of an instance of that class (a custom congestion
     * controller factory or address selector without a public no-arg constructor, or a lambda,
     * named as the journal names it: {@code ./sctpj journal DIR} shows it).
     */
    public static ReplayResult run(Path dir, Map<String, ? extends Supplier<?>> substitutes) throws IOException {
        Codec.SUBSTITUTES.set(Map.copyOf(substitutes));
        try {
            return run(dir);
        } finally {
            Codec.SUBSTITUTES.remove();
        }
    }

    /**
     * Replays the journal in {@code dir}, handing the fresh endpoint to {@code onCreated} right after
     * its creation (to inspect it, or to set a breakpoint's condition on it).
     */
    public static ReplayResult run(Path dir, Consumer<Endpoint> onCreated) throws IOException {
        return run(dir, onCreated, (e, ep) -> {});
    }

    /**
     * As {@link #run(Path, Consumer)}, showing {@code observer} each entry (random draws aside) just
     * before the replay acts on it, with the endpoint (null before the CREATED entry), and once more
     * at the end with a null entry: for timelines that read the endpoint's state between entries.
     */
    public static ReplayResult run(Path dir, Consumer<Endpoint> onCreated, BiConsumer<JournalEntry, Endpoint> observer)
            throws IOException {
        return new Replay(dir, onCreated, observer).replay();
    }

    /** A nanosecond time as milliseconds with 3 decimals. */
    static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f", nanos / 1e6);
    }

    /** Thrown to unwind the endpoint call in which the difference showed. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop() {
            super(null, null, false, false);
        }
    }

    private ReplayResult replay() throws IOException {
        cursor = JournalReader.open(dir);
        random = new ReplayRandom(dir);
        try {
            JournalEntry e;
            while (difference == null && (e = next()) != null) {
                try {
                    top(e);
                } catch (Stop s) {
                    // the difference is recorded
                } catch (ReplayRandom.Diverged d) {
                    if (!cut()) { // past the end of a cut journal, draws run out too
                        fail(e, d.getMessage(), "", "");
                    }
                }
            }
            wasCut = difference == null && cut();
            observer.accept(null, endpoint);
            if (difference == null && endpoint == null) {
                fail(null, "the journal has no CREATED entry at its start (its first cycle was deleted?)", "", "");
            }
        } finally {
            cursor.close();
            random.close();
        }
        String cut = wasCut
                ? "the journal ends without its CLOSED entry: the recording process stopped without closing"
                        + " the recorder (a crash?) and the entries it still held in memory are missing; what"
                        + " is there replayed identically"
                : "";
        return new ReplayResult(entries, inputs, checked, Optional.ofNullable(difference), cut);
    }

    /** True when the journal (format 2 on) ended without its CLOSED entry. */
    private boolean cut() {
        return endpoint != null && format >= 2 && !closedSeen && !cursor.hasNext();
    }

    /** The next entry that is not a random draw (draws are taken by {@link ReplayRandom}). */
    private JournalEntry next() {
        while (cursor.hasNext()) {
            JournalEntry e = cursor.next();
            entries++;
            if (e.kind() == Kind.DRAW || e.kind() == Kind.DRAW_BYTES) {
                continue;
            }
            context.addLast(e.index() + " @" + millis(e.now()) + ": " + e.describe());
            if (context.size() > CONTEXT + 1) {
                context.removeFirst();
            }
            observer.accept(e, endpoint);
            return e;
        }
        return null;
    }

    private JournalEntry peekNonDraw() {
        JournalEntry e;
        while ((e = cursor.peek()) != null && (e.kind() == Kind.DRAW || e.kind() == Kind.DRAW_BYTES)) {
            cursor.next();
            entries++;
        }
        return e;
    }

    private void fail(JournalEntry at, String what, String expected, String actual) {
        if (difference != null) {
            return;
        }
        List<String> ctx = new ArrayList<>(context);
        if (at != null && !ctx.isEmpty()) {
            ctx.remove(ctx.size() - 1); // the entry itself is reported as "expected"
        }
        difference = new Difference(
                at == null ? entries : at.index(), at == null ? 0 : at.now(), what, expected, actual, List.copyOf(ctx));
        throw new Stop();
    }

    private void top(JournalEntry e) {
        switch (e.kind()) {
            case CREATED -> create(e);
            case EVENT -> {
                Codec.In in = e.body();
                if (in.u8() == 0) {
                    fail(e, "an event the recorded endpoint handed out is missing", e.describe(), "nothing");
                }
                need(e);
                SctpEvent actual = endpoint.pollEventOrNull();
                compare(e, in, eventBody(actual), actual == null ? "no event" : describeEvent(actual));
            }
            case BAD_CHECKSUM -> {} // acted on with the PACKET_IN before it
            case GAP -> fail(
                    e,
                    "the journal is incomplete: its recorder dropped entries here because its writer was"
                            + " behind (recorded with whenBehind(DROP)); nothing after this point can be replayed",
                    e.describe(),
                    "");
            case CLOSED -> closedSeen = true;
            case MESSAGE, FREED -> fail(
                    e, "an output the recorded endpoint handed out is missing", e.describe(), "nothing");
            default -> execute(e);
        }
    }

    private void need(JournalEntry e) {
        if (endpoint == null) {
            fail(e, "the journal does not start with its CREATED entry (its first cycle was deleted?)", "", "");
        }
    }

    private void create(JournalEntry e) {
        if (endpoint != null) {
            fail(e, "a second CREATED entry: one journal records one endpoint", "", "");
        }
        Codec.In in = e.body();
        int format = in.i32();
        this.format = format;
        if (format < 1 || format > JournalRecorder.FORMAT) {
            fail(
                    e,
                    "journal format " + format + ", this build reads formats 1 to " + JournalRecorder.FORMAT
                            + ": replay it with the build that recorded it",
                    "",
                    "");
        }
        int port = in.i32();
        List<InetAddress> locals = new ArrayList<>();
        for (Object o : (List<?>) Codec.read(in)) {
            locals.add((InetAddress) o);
        }
        SctpOptions options;
        try {
            options = (SctpOptions) Codec.read(in);
        } catch (IllegalArgumentException x) {
            fail(e, "cannot rebuild the endpoint's options: " + x.getMessage(), "", "");
            return;
        }
        in.string();
        headersOnly = in.u8() != 0;
        if (headersOnly && format < 3) {
            fail(
                    e,
                    "the journal was recorded with headers only by a build before journal format 3 (no"
                            + " message bytes, no record of bad checksums): it can be inspected and exported,"
                            + " not replayed",
                    "",
                    "");
        }
        digests = in.u8() != 0;
        endpoint = new Endpoint(port, locals, options, random, e.now());
        onCreated.accept(endpoint);
    }

    private void execute(JournalEntry e) {
        need(e);
        inputs++;
        Codec.In in = e.body();
        long now = e.now();
        switch (e.kind()) {
            case PACKET_IN -> {
                InetAddress from = in.address();
                InetAddress to = in.address();
                int ecn = in.i32();
                int length = in.i32();
                byte[] p = in.bytes();
                if (headersOnly) {
                    p = rebuild(e, p, length);
                }
                // journals written before the core took ECN recorded -1: no codepoint
                endpoint.handleInput(ByteBuffer.wrap(p), from, to, ecn < 0 ? Ecn.NOT_ECT : ecn, now);
            }
            case ICMP -> endpoint.handleIcmp((IcmpReport) Codec.read(in), now);
            case TIMEOUT -> endpoint.handleTimeout(now);
            case SEND -> {
                in.u8();
                AssociationId id = new AssociationId(in.i32());
                SendInfo info = (SendInfo) Codec.read(in);
                int length = in.i32();
                byte[] recorded = in.bytes();
                byte[] data = headersOnly ? new byte[length] : recorded; // not recorded: zeros
                guarded(() -> endpoint.send(id, info, ByteBuffer.wrap(data), now));
            }
            case COMMAND -> command(e, in, now);
            case TRANSMIT, NO_TRANSMIT -> transmit(e, in, now);
            default -> fail(e, "unexpected " + e.kind() + " entry", e.describe(), "");
        }
    }

    /**
     * A packet received, recorded with headers only, as the replay feeds it: each DATA / I-DATA
     * chunk filled with zeros to its recorded length, and a checksum that holds, or a wrong one when
     * the recorded endpoint found the checksum wrong (a BAD_CHECKSUM entry follows). A packet that
     * carries an AUTH chunk with DATA cannot be rebuilt: its HMAC covered the user data.
     */
    private byte[] rebuild(JournalEntry e, byte[] cut, int length) {
        byte[] p = Headers.restore(cut, length);
        if (p == cut) {
            p = cut.clone();
            if (p.length >= 12) {
                org.sctpj.stack.wire.Crc32c.fill(ByteBuffer.wrap(p), 0, p.length);
            }
        }
        if (Headers.authenticatesData(p)) {
            fail(
                    e,
                    "the journal was recorded with headers only and this packet authenticates its DATA"
                            + " (SCTP-AUTH): its HMAC covered the user data, which the journal does not have;"
                            + " record with the message bytes (the default) to replay such an association",
                    e.describe(),
                    "");
        }
        JournalEntry n = peekNonDraw();
        if (n != null && n.kind() == Kind.BAD_CHECKSUM && p.length >= 12) {
            p[8] ^= 1; // the recorded packet failed its check: so does this one
        }
        return p;
    }

    /**
     * Runs a recorded user call; one that threw when recorded (API misuse) throws again here and is
     * passed over, since it changed nothing then either.
     */
    private void guarded(Runnable call) {
        try {
            call.run();
        } catch (Stop | ReplayRandom.Diverged s) {
            throw s;
        } catch (IllegalArgumentException | IllegalStateException misuse) {
            // the recorded call threw the same
        }
    }

    private void command(JournalEntry e, Codec.In in, long now) {
        in.u8();
        String name = in.string();
        int n = in.u8();
        Object[] a = new Object[n];
        try {
            for (int i = 0; i < n; i++) {
                a[i] = Codec.read(in);
            }
        } catch (IllegalArgumentException x) {
            fail(e, "cannot replay " + name + ": " + x.getMessage(), e.describe(), "");
        }
        Endpoint ep = endpoint;
        AssociationId id = n > 0 && a[0] instanceof AssociationId x ? x : null;
        switch (name) {
            case "listen" -> ep.listen((Boolean) a[0]);
            case "shard" -> ep.shard((Integer) a[0], (Integer) a[1]);
            case "setAddressPolicy" -> ep.setAddressPolicy("none".equals(a[0]) ? null : (AddressPolicy) a[0]);
            case "connect" -> guarded(() -> ep.connect(addresses(a[0]), (Integer) a[1], (SctpOptions) a[2], now));
            case "shutdown" -> guarded(() -> ep.shutdown(id, now));
            case "abort" -> guarded(() -> ep.abort(id, (byte[]) a[1], now));
            case "releaseReceived" -> guarded(() -> ep.releaseReceived(id, (Long) a[1]));
            case "setSendThreshold" -> guarded(() -> ep.setSendThreshold(id, (Long) a[1]));
            case "setDefaultPrPolicy" -> guarded(() -> ep.setDefaultPrPolicy(id, (PrPolicy) a[1]));
            case "setStreamScheduler" -> guarded(() -> ep.setStreamScheduler(id, (StreamSchedulerKind) a[1]));
            case "setStreamValue" -> guarded(() -> ep.setStreamValue(id, (Integer) a[1], (Integer) a[2]));
            case "resetStreams" -> guarded(
                    () -> ep.resetStreams(id, (int[]) a[1], (Boolean) a[2], (Boolean) a[3], now));
            case "resetAssociation" -> guarded(() -> ep.resetAssociation(id, now));
            case "addStreams" -> guarded(() -> ep.addStreams(id, (Integer) a[1], (Integer) a[2], now));
            case "setAcceptedReconfigRequests" -> guarded(() -> ep.setAcceptedReconfigRequests(id, kinds(a[1])));
            case "setPrimary" -> guarded(() -> ep.setPrimary(id, (InetAddress) a[1]));
                // Dynamic address reconfiguration (RFC 5061)
            case "addLocalAddress" -> guarded(() -> ep.addLocalAddress((InetAddress) a[0], now));
            case "removeLocalAddress" -> guarded(() -> ep.removeLocalAddress((InetAddress) a[0], now));
            case "setPeerPrimary" -> guarded(() -> ep.setPeerPrimary(id, (InetAddress) a[1], now));
            case "setAcceptedAddressRequests" -> guarded(() -> {
                java.util.EnumSet<org.sctpj.stack.asconf.AddressReconfiguration.Kind> k =
                        java.util.EnumSet.noneOf(org.sctpj.stack.asconf.AddressReconfiguration.Kind.class);
                for (Object x : (Set<?>) a[1]) {
                    k.add((org.sctpj.stack.asconf.AddressReconfiguration.Kind) x);
                }
                ep.setAcceptedAddressRequests(id, k);
            });
            case "setPathMtu" -> guarded(() -> ep.setPathMtu(id, (InetAddress) a[1], (Integer) a[2]));
                // AUTH keys (RFC 4895): endpoint-wide without an association, else the association's
            case "setAuthKey" -> guarded(() -> {
                if (id == null) {
                    ep.setAuthKey((Integer) a[0], (byte[]) a[1]);
                } else {
                    ep.setAuthKey(id, (Integer) a[1], (byte[]) a[2]);
                }
            });
            case "setActiveAuthKey" -> guarded(() -> {
                if (id == null) {
                    ep.setActiveAuthKey((Integer) a[0]);
                } else {
                    ep.setActiveAuthKey(id, (Integer) a[1]);
                }
            });
            case "deactivateAuthKey" -> guarded(() -> {
                if (id == null) {
                    ep.deactivateAuthKey((Integer) a[0]);
                } else {
                    ep.deactivateAuthKey(id, (Integer) a[1]);
                }
            });
            case "deleteAuthKey" -> guarded(() -> {
                if (id == null) {
                    ep.deleteAuthKey((Integer) a[0]);
                } else {
                    ep.deleteAuthKey(id, (Integer) a[1]);
                }
            });
            case "setEventHandler" -> ep.setEventHandler((Boolean) a[0] ? this : null);
            default -> fail(
                    e, "command " + name + " is unknown to this replay (recorded by a newer build?)", e.describe(), "");
        }
    }

    private static List<InetAddress> addresses(Object o) {
        List<InetAddress> l = new ArrayList<>();
        for (Object x : (List<?>) o) {
            l.add((InetAddress) x);
        }
        return l;
    }

    private static Set<ReconfigRequestKind> kinds(Object o) {
        java.util.EnumSet<ReconfigRequestKind> s = java.util.EnumSet.noneOf(ReconfigRequestKind.class);
        for (Object x : (Set<?>) o) {
            s.add((ReconfigRequestKind) x);
        }
        return s;
    }

    private void transmit(JournalEntry e, Codec.In in, long now) {
        int room = in.i32();
        InetAddress source;
        InetAddress destination;
        byte[] packet;
        if (room < 0) {
            Transmit t = endpoint.pollTransmit(now).orElse(null);
            source = t == null ? null : t.source();
            destination = t == null ? null : t.destination();
            packet = t == null ? null : t.packet();
        } else {
            ByteBuffer b = ByteBuffer.allocate(room);
            destination = endpoint.pollTransmit(b, now);
            source = destination == null ? null : endpoint.transmitSource();
            packet = destination == null ? null : Arrays.copyOfRange(b.array(), b.position(), b.limit());
        }
        checked++;
        Codec.Out actual = new Codec.Out(packet == null ? 16 : packet.length + 32);
        actual.i32(room);
        String actualText;
        if (packet == null) {
            actualText = "nothing to send";
            if (e.kind() == Kind.NO_TRANSMIT) {
                return;
            }
        } else {
            actual.address(source);
            actual.address(destination);
            actual.i32(packet.length);
            if (headersOnly) {
                int at = actual.pos + 4;
                Headers.cutInto(ByteBuffer.wrap(packet), actual);
                if (actual.pos - at >= 12) { // recorded as 0: it covered user data not recorded
                    java.util.Arrays.fill(actual.buf, at + 8, at + 12, (byte) 0);
                }
            } else if (digests) {
                Headers.cutInto(ByteBuffer.wrap(packet), actual);
            } else {
                actual.bytes(packet, 0, packet.length);
            }
            actualText = "out " + source.getHostAddress() + " > " + destination.getHostAddress() + "  "
                    + Describe.chunks(packet, 0, packet.length, packet.length);
        }
        byte[] expected = Arrays.copyOfRange(e.batch(), e.bodyOffset(), e.bodyEnd());
        byte[] got = actual.toArray();
        if (!Arrays.equals(expected, got)) {
            String where = "";
            if (e.kind() == Kind.TRANSMIT && packet != null) {
                // the packet starts after room, the two addresses and two lengths
                int header = 4 + 1 + source.getAddress().length + 1 + destination.getAddress().length + 8;
                int at = Arrays.mismatch(expected, got) - header;
                if (at < 0) {
                    where = " in its addresses or length";
                } else if (digests && !headersOnly && at >= 8 && at < 12) {
                    where = " in its CRC32c (recorded by digest: its user data differs)";
                } else {
                    where = " at byte " + at + (digests || headersOnly ? " of its headers" : " of the packet");
                }
            }
            fail(e, "the packet sent differs" + where, e.describe(), actualText);
        }
    }

    /** Compares the rest of {@code in} (an output's recorded body) with {@code actual}. */
    private void compare(JournalEntry e, Codec.In in, byte[] actual, String actualText) {
        checked++;
        byte[] expected = Arrays.copyOfRange(in.buf, in.pos, in.end);
        if (!Arrays.equals(expected, actual)) {
            fail(
                    e,
                    e.kind() == Kind.EVENT
                            ? "the event differs"
                            : "the " + e.kind().name().toLowerCase(java.util.Locale.ROOT) + " differs",
                    e.describe(),
                    actualText);
        }
    }

    private byte[] eventBody(SctpEvent ev) {
        if (ev == null) {
            return new byte[0];
        }
        if (headersOnly && ev instanceof SctpEvent.MessageReceived m) {
            ev = JournalRecorder.withoutData(m);
        }
        Codec.Out o = new Codec.Out(64);
        Codec.write(o, ev);
        return o.toArray();
    }

    private String describeEvent(SctpEvent ev) {
        byte[] b = eventBody(ev);
        return "event " + Codec.describe(new Codec.In(b, 0, b.length));
    }

    // ------------------------------------------------------------------ the replay's event handler

    /** The next recorded output must be of {@code kind} and equal to {@code actual}; then nested calls run. */
    private void expect(Kind kind, byte[] actual, String actualText) {
        if (difference != null) {
            return;
        }
        JournalEntry x = next();
        if (x == null && cut()) {
            throw new Stop(); // the journal was cut here: what the endpoint hands out now was not recorded
        }
        if (x == null) {
            fail(null, "the replayed endpoint handed out more than the journal holds", "", actualText);
            return;
        }
        Codec.In in = x.body();
        if (x.kind() != kind || (kind == Kind.EVENT && in.u8() != 0)) {
            fail(
                    x,
                    "the replayed endpoint handed out an output the journal does not have here",
                    x.describe(),
                    actualText);
        }
        compare(x, in, actual, actualText);
        // Calls the recorded handler made while this was handed out.
        JournalEntry n;
        while (difference == null
                && (n = peekNonDraw()) != null
                && (n.kind() == Kind.SEND || n.kind() == Kind.COMMAND)
                && n.body().u8() != 0) {
            execute(next());
        }
    }

    /** Replay's handler: checks each event against the journal. */
    @Override
    public void onEvent(SctpEvent event) {
        expect(Kind.EVENT, eventBody(event), describeEvent(event));
    }

    /** Replay's handler: checks each message against the journal. */
    @Override
    public void onMessage(AssociationId association, int streamId, int ppid, boolean unordered, ByteBuffer data) {
        Codec.Out o = new Codec.Out(data.remaining() + 32);
        o.i32(association.value());
        o.i32(streamId);
        o.i32(ppid);
        o.u8(unordered ? 1 : 0);
        o.i32(data.remaining());
        if (headersOnly) {
            o.i32(0);
        } else if (digests) {
            JournalRecorder.digest(data, o);
        } else {
            o.bytes0(data);
        }
        expect(
                Kind.MESSAGE,
                o.toArray(),
                "message assoc " + association.value() + " stream " + streamId + " " + data.remaining() + " B");
    }

    /** Replay's handler: checks each send-space figure against the journal. */
    @Override
    public void onSendBufferFreed(AssociationId association, long freeBytes) {
        Codec.Out o = new Codec.Out(16);
        o.i32(association.value());
        o.i64(freeBytes);
        expect(Kind.FREED, o.toArray(), "send space assoc " + association.value() + " free " + freeBytes + " B");
    }
}
