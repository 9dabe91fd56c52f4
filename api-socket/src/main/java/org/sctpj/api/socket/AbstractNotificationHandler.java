package org.sctpj.api.socket;

/**
 * A {@link NotificationHandler} with one method per notification type, each returning {@link
 * HandlerResult#CONTINUE} unless overridden (as {@code com.sun.nio.sctp.AbstractNotificationHandler}).
 *
 * @param <T> the attachment passed to receive
 */
public class AbstractNotificationHandler<T> implements NotificationHandler<T> {

    /** A handler that continues on every notification. */
    protected AbstractNotificationHandler() {}

    @Override
    public final HandlerResult handleNotification(Notification n, T attachment) {
        if (n instanceof AssociationChangeNotification a) {
            return handleNotification(a, attachment);
        } else if (n instanceof PeerAddressChangeNotification p) {
            return handleNotification(p, attachment);
        } else if (n instanceof SendFailedNotification f) {
            return handleNotification(f, attachment);
        } else if (n instanceof ShutdownNotification s) {
            return handleNotification(s, attachment);
        } else if (n instanceof RemoteErrorNotification r) {
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
        } else if (n instanceof AuthenticationNotification au) {
            return handleNotification(au, attachment);
        }
        return HandlerResult.CONTINUE;
    }

    /** An association changed state. */
    public HandlerResult handleNotification(AssociationChangeNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** A peer address changed state. */
    public HandlerResult handleNotification(PeerAddressChangeNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** A message will not be delivered. */
    public HandlerResult handleNotification(SendFailedNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The peer started a graceful shutdown. */
    public HandlerResult handleNotification(ShutdownNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The peer reported an error (sctpj). */
    public HandlerResult handleNotification(RemoteErrorNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** Everything sent has been acknowledged (sctpj). */
    public HandlerResult handleNotification(SenderDryNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The peer announced an Adaptation Layer Indication (sctpj). */
    public HandlerResult handleNotification(AdaptationIndicationNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** Streams were reset, or a reset was refused (RFC 6525 section 6.1.1; sctpj). */
    public HandlerResult handleNotification(StreamResetNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The association's TSNs and SSNs were reset, or that was refused (RFC 6525 section 6.1.2; sctpj). */
    public HandlerResult handleNotification(AssociationResetNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** The stream counts changed, or an addition was refused (RFC 6525 section 6.1.3; sctpj). */
    public HandlerResult handleNotification(StreamChangeNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }

    /** A new key, a freed key, or a peer without AUTH (RFC 6458 section 6.1.8; sctpj). */
    public HandlerResult handleNotification(AuthenticationNotification notification, T attachment) {
        return HandlerResult.CONTINUE;
    }
}
