/**
 * The end of an association (RFC 9260 section 9): {@link org.sctpj.stack.teardown.Shutdown}, the
 * graceful shutdown of section 9.2 (SHUTDOWN-PENDING, -SENT, -RECEIVED, SHUTDOWN-ACK-SENT,
 * T2-shutdown, T5-shutdown-guard, SHUTDOWN COMPLETE); {@link org.sctpj.stack.teardown.Abort}, ABORT
 * sent and received (section 9.1) and the one way into CLOSED. Internal to the stack.
 */
package org.sctpj.stack.teardown;
