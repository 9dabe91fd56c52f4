package org.sctpj.stack;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.random.RandomGenerator;
import org.sctpj.stack.icmp.IcmpReport;

/**
 * Sees every input and output of one {@link Endpoint}, for a recorder that can replay them (the
 * {@code journal} module writes them to a Chronicle Queue). The core's outputs are fully determined
 * by its inputs (packets, ICMP reports, times, user commands and random draws), so a journal of all
 * of them reproduces a run exactly.
 *
 * <p>Installed with the {@link Endpoint#Endpoint(int, List, SctpOptions, RandomGenerator, long,
 * CoreJournal) constructor} that takes one, so that it sees the endpoint from its first random
 * draw. Every method runs on the endpoint's owner thread, inside the endpoint call it reports,
 * before the call's work for inputs and as each output leaves for outputs; it must not call the
 * endpoint. An implementation must not throw: an exception would be thrown out of the endpoint
 * call. The buffers it is given are the endpoint's own or its caller's (no copy is made for the
 * journal): it reads them from position to limit and must neither keep them nor move their
 * position or limit. The interface does no I/O itself; the core calls it only when one is installed (one null
 * check per call otherwise).
 */
public interface CoreJournal {

    /**
     * Makes the journal of an endpoint an API creates (the callback API's socket at bind time).
     * The API closes a journal that is {@link AutoCloseable} when the endpoint is closed.
     */
    @FunctionalInterface
    interface Factory {
        /**
         * The journal for the endpoint about to be created on {@code localPort}, over the lower
         * layer named {@code lowerLayer}; {@code null} records nothing.
         */
        CoreJournal open(int localPort, String lowerLayer);
    }

    /**
     * The random source the endpoint is to use, given the one its creator passed: a recorder
     * returns a wrapper that notes every draw (or a seeded generator whose seed it notes). Called
     * once, first, by the constructor.
     */
    default RandomGenerator random(RandomGenerator source) {
        return source;
    }

    /** The endpoint was created (before it draws its cookie secret). */
    void created(int localPort, List<InetAddress> localAddresses, SctpOptions options, long now);

    /**
     * {@link Endpoint#handleInput}: the packet from position to limit (not to be kept), with the IP
     * ECN codepoint the lower layer read ({@code Ecn.NOT_ECT} when it reads none).
     */
    void packetIn(ByteBuffer packet, InetAddress from, InetAddress to, int ecn, long now);

    /**
     * The packet of the last {@link #packetIn} failed its CRC32c check (RFC 9260 section 6.8) and
     * was dropped: for a recorder that leaves user data out and so cannot tell later.
     */
    default void badChecksum() {}

    /** {@link Endpoint#handleIcmp}. */
    void icmp(IcmpReport report, long now);

    /** {@link Endpoint#handleTimeout}. */
    void timeout(long now);

    /**
     * {@link Endpoint#send} or {@link Endpoint#sendOwned}: the message from position to limit (not
     * to be kept).
     *
     * @param nested true when made by the event handler during a hand-out of the endpoint
     */
    void send(AssociationId id, SendInfo info, ByteBuffer data, long now, boolean nested);

    /**
     * Any other call that changes the endpoint's state, by the name of its {@link Endpoint} method
     * and its arguments (records, enums, boxed primitives, strings, byte and int arrays, addresses,
     * lists and sets of them). {@code now} is the call's time, or the last time the endpoint was
     * given for a call without one.
     *
     * @param nested true when made by the event handler during a hand-out of the endpoint
     */
    void command(String name, long now, boolean nested, Object... args);

    /**
     * A {@link Endpoint#pollTransmit} call that produced a packet: {@code packet} from position to
     * limit (not to be kept), from {@code source} to {@code destination}; {@code room} is the
     * caller's buffer space ({@code -1} for the form that allocates), which decides how much DATA
     * fits.
     */
    void transmit(ByteBuffer packet, InetAddress source, InetAddress destination, int room, long now);

    /** A {@link Endpoint#pollTransmit} call that found nothing to send. */
    void noTransmit(int room, long now);

    /** An event handed to the event handler, or polled with {@link Endpoint#pollEvent}. */
    void event(SctpEvent event, boolean polled);

    /** A message handed to the event handler in place ({@link EventHandler#onMessage}). */
    void message(AssociationId id, int streamId, int ppid, boolean unordered, ByteBuffer data);

    /** {@link EventHandler#onSendBufferFreed} as handed to the event handler. */
    void sendBufferFreed(AssociationId id, long freeBytes);
}
