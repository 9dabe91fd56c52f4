package org.sctpj.api.socket;

/**
 * The peer started a graceful shutdown: no more data will arrive on the association (RFC 6458
 * section 6.1.5, SCTP_SHUTDOWN_EVENT).
 *
 * @param association the association
 */
public record ShutdownNotification(Association association) implements Notification {}
