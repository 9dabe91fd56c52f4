/**
 * Association setup (RFC 9260 section 5): {@link org.sctpj.stack.handshake.Handshake}, the
 * stateless answer to an INIT (an INIT ACK with a signed {@link
 * org.sctpj.stack.handshake.StateCookie}, keys in {@link org.sctpj.stack.handshake.CookieSecrets});
 * {@link org.sctpj.stack.handshake.InitHandling}, the INIT and INIT ACK parameters; {@link
 * org.sctpj.stack.handshake.Connect}, the setup of an association (INIT, INIT ACK, COOKIE ECHO,
 * COOKIE ACK, T1-init and T1-cookie, the Stale Cookie retry); {@link
 * org.sctpj.stack.handshake.InitCollision}, the table of sections 5.2.1 to 5.2.6 for setup chunks
 * that meet an existing association (INIT collisions, duplicate COOKIE ECHO, restart). Internal to
 * the stack.
 */
package org.sctpj.stack.handshake;
