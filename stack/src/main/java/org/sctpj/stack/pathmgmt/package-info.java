/**
 * Path management of an association (RFC 9260 sections 5.4 and 8, RFC 7829): {@link
 * org.sctpj.stack.pathmgmt.HeartbeatHandler} with {@link org.sctpj.stack.pathmgmt.Heartbeats}, path
 * heartbeat (8.3) and path confirmation (5.4); {@link org.sctpj.stack.pathmgmt.Failover}, error
 * counting per path and per association (8.1, 8.2), SCTP-PF, failover and return to the primary,
 * Primary Path Switchover; {@link org.sctpj.stack.pathmgmt.PathSet}, the destinations, their source
 * addresses and the primary (SET PRIMARY, 10.1). The per-destination state itself is {@link
 * org.sctpj.stack.path.Path}. Internal to the stack.
 */
package org.sctpj.stack.pathmgmt;
