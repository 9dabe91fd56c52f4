package org.sctpj.api.socket;

import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.SctpSocketOption;
import java.io.IOException;
import org.sctpj.api.socket.SctpjSocketOptions.DefaultSendInfo;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.StreamSchedulerKind;

/** Shared parts of send and of option reading. */
final class Sends {
    private Sends() {}

    /** The core's send info for {@code info}, or the channel's default when null. */
    static SendInfo sendInfo(MessageInfo info, OptionValues options) {
        if (info == null) {
            DefaultSendInfo d = options.get(SctpjSocketOptions.SCTP_DEFAULT_SNDINFO);
            return new SendInfo(d.streamNumber(), d.ppid(), d.unordered(), false);
        }
        if (!info.isComplete()) {
            throw new UnsupportedOperationException(
                    "sctpj sends whole messages only (SCTP_EXPLICIT_COMPLETE unsupported): leave complete(true)");
        }
        boolean sackNow = info instanceof SctpjMessageInfo m && m.isSackImmediately();
        SendInfo si = new SendInfo(info.streamNumber(), info.payloadProtocolID(), info.isUnordered(), sackNow);
        if (info.timeToLive() < 0 || info.timeToLive() > 0xffff_ffffL) {
            throw new IllegalArgumentException(
                    "timeToLive is 0 (reliable) to 4294967295 milliseconds, was " + info.timeToLive());
        }
        // A time to live is the timed reliability of PR-SCTP (RFC 3758 section 4.1; RFC 6458's
        // sinfo_timetolive with SCTP_PR_SCTP_TTL); 0 keeps the association's default (reliable).
        return info.timeToLive() == 0 ? si : si.withPrPolicy(PrPolicy.timeToLive(info.timeToLive()));
    }

    /**
     * A channel's last send info, reused while its sends ask for the same stream, PPID, flags and
     * time to live: a sender that sends the same kind of message again and again makes no object
     * per message. Any thread; a race only makes one more object.
     */
    static final class LastSendInfo {
        private record Entry(int stream, int ppid, boolean unordered, boolean sackNow, long ttl, SendInfo info) {}

        private volatile Entry last;

        /** As {@link Sends#sendInfo}, reusing the last result when {@code info} asks for the same. */
        SendInfo of(MessageInfo info, OptionValues options) {
            if (info == null) {
                return sendInfo(null, options);
            }
            Entry e = last;
            boolean sackNow = info instanceof SctpjMessageInfo m && m.isSackImmediately();
            if (e != null
                    && info.isComplete()
                    && e.stream == info.streamNumber()
                    && e.ppid == info.payloadProtocolID()
                    && e.unordered == info.isUnordered()
                    && e.sackNow == sackNow
                    && e.ttl == info.timeToLive()) {
                return e.info;
            }
            SendInfo si = sendInfo(info, options);
            last = new Entry(
                    info.streamNumber(), info.payloadProtocolID(), info.isUnordered(), sackNow, info.timeToLive(), si);
            return si;
        }
    }

    /**
     * An option's value; SCTP_PRIMARY_ADDR, SCTP_PLUGGABLE_SS and the UDP port read live state when
     * there is some.
     */
    @SuppressWarnings("unchecked")
    static <T> T getOption(SctpSocketOption<T> name, OptionValues options, Core core, AssocState assoc)
            throws IOException {
        if (name == SctpjSocketOptions.SCTP_PRIMARY_ADDR && assoc != null && core != null) {
            AssociationInfo i = core.info(assoc);
            if (i != null) {
                return (T) new java.net.InetSocketAddress(i.primary(), assoc.peerPort);
            }
            return (T) assoc.primary;
        }
        if (name == SctpjSocketOptions.SCTP_PLUGGABLE_SS && assoc != null && core != null) {
            StreamSchedulerKind k = core.streamScheduler(assoc);
            if (k != null) {
                return (T) k;
            }
        }
        if (name == SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT && core != null && core.udpPort() != 0) {
            return (T) Integer.valueOf(core.udpPort());
        }
        return options.get(name);
    }
}
