package org.sctpj.api.socket;

/**
 * Everything sent on the association has been acknowledged (RFC 6458 section 6.1.9,
 * SCTP_SENDER_DRY_EVENT; sctpj, not in the JDK API). Not subscribed by default.
 *
 * @param association the association
 */
public record SenderDryNotification(Association association) implements Notification {}
