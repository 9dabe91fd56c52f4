package org.sctpj.api.socket;

import com.sun.nio.sctp.AbstractNotificationHandler;
import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.Notification;

/**
 * The JDK's {@link AbstractNotificationHandler} with one more method per notification sctpj adds
 * (remote error, sender dry, adaptation indication, the stream reconfiguration outcomes of RFC
 * 6525, path MTU changes and ECN congestion), each returning {@link HandlerResult#CONTINUE} unless overridden. sctpj's channels call the
 * JDK's four typed methods for the JDK's notifications and {@link #handleNotification(Notification,
 * Object)} for the others, which this class hands to the typed methods below. Every method runs on
 * the thread that called {@code receive}, before receive returns.
 *
 * @param <T> the attachment passed to receive
 */
public class SctpjNotificationHandler<T> extends AbstractNotificationHandler<T> {

    /** A handler that continues on every notification. */
    protected SctpjNotificationHandler() {}

    /** Hands sctpj's own notifications to their typed method; others continue. */
    @Override
    public HandlerResult handleNotification(Notification n, T attachment) {
        if (n instanceof RemoteErrorNotification r) {
            return handleNotification(r, attachment);
        } else if (n instanceof SenderDryNotification d) {
            return handleNotification(d, attachment);
        } else if (n instanceof AdaptationIndicationNotification ai) {
            return handleNotification(ai, attachment);
        } else if (n instanceof StreamResetNotification r) {
            return handleNotification(r, attachment);
        } else if (n instanceof AssociationResetNotification r) {
            return handleNotification(r, attachment);
        } else if (n instanceof StreamChangeNotification c) {
            return handleNotification(c, attachment);
        } else if (n instanceof AuthenticationNotification a) {
            return handleNotification(a, attachment);
        } else if (n instanceof PartialDeliveryAbortedNotification p) {
            return handleNotification(p, attachment);
        } else if (n instanceof LocalAddressChangeNotification l) {
            return handleNotification(l, attachment);
        } else if (n instanceof PathMtuChangeNotification m) {
            return handleNotification(m, attachment);
        } else if (n instanceof EcnCongestionNotification e) {
            return handleNotification(e, attachment);
        }
        return HandlerResult.CONTINUE;
    }

    /** The peer reported an error (RFC 6458 SCTP_REMOTE_ERROR). */
    public HandlerResult handleNotification(RemoteErrorNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** Everything sent has been acknowledged (RFC 6458 SCTP_SENDER_DRY_EVENT). */
    public HandlerResult handleNotification(SenderDryNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The peer announced an Adaptation Layer Indication (RFC 5061 section 4.2.6). */
    public HandlerResult handleNotification(AdaptationIndicationNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** Streams were reset, or a reset was refused (RFC 6525 section 6.1.1). */
    public HandlerResult handleNotification(StreamResetNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The association's TSNs and SSNs were reset, or that was refused (RFC 6525 section 6.1.2). */
    public HandlerResult handleNotification(AssociationResetNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The stream counts changed, or an addition was refused (RFC 6525 section 6.1.3). */
    public HandlerResult handleNotification(StreamChangeNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** A new key is in use, a key may be freed, or the peer has no AUTH (RFC 6458 section 6.1.8). */
    public HandlerResult handleNotification(AuthenticationNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** A message arriving in parts will not be completed (RFC 6458 section 6.1.7). */
    public HandlerResult handleNotification(PartialDeliveryAbortedNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The peer answered a change of one of our addresses (RFC 5061 ASCONF-ACK). */
    public HandlerResult handleNotification(LocalAddressChangeNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** Path MTU discovery changed a path's MTU (RFC 8899; sctpj). */
    public HandlerResult handleNotification(PathMtuChangeNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** A Congestion Experienced echo reduced a path's congestion window (RFC 9260 appendix A; sctpj). */
    public HandlerResult handleNotification(EcnCongestionNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }
}
