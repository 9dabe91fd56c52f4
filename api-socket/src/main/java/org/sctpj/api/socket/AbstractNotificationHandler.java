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
}
