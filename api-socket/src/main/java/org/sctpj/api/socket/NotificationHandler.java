package org.sctpj.api.socket;

/**
 * Handles the notifications a receive operation meets before a message (as {@code
 * com.sun.nio.sctp.NotificationHandler}). It runs on the thread that called receive, which may
 * not call receive again from inside the handler ({@link IllegalReceiveException}).
 *
 * @param <T> the attachment passed to receive
 */
@FunctionalInterface
public interface NotificationHandler<T> {

    /**
     * Handles one notification.
     *
     * @return {@link HandlerResult#CONTINUE} to go on waiting for a message, {@link
     *     HandlerResult#RETURN} to make receive return {@code null}
     */
    HandlerResult handleNotification(Notification notification, T attachment);
}
