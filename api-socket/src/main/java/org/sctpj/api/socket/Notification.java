package org.sctpj.api.socket;

/**
 * A notification from the SCTP stack, handed to a {@link NotificationHandler} by a receive
 * operation (RFC 6458 section 6.1). Subscribe with {@link SctpStandardSocketOptions#SCTP_EVENTS}.
 */
public sealed interface Notification
        permits AssociationChangeNotification,
                PeerAddressChangeNotification,
                SendFailedNotification,
                ShutdownNotification,
                RemoteErrorNotification,
                SenderDryNotification,
                AdaptationIndicationNotification,
                StreamResetNotification,
                AssociationResetNotification,
                StreamChangeNotification,
                AuthenticationNotification {

    /** The association this notification concerns; may be {@code null} if unknown. */
    Association association();
}
