/**
 * Netty's SCTP transport ({@code netty-transport-sctp}) over sctpj: an event loop whose selectors
 * come from {@link org.sctpj.api.socket.SctpProvider}, Netty's own {@code NioSctpChannel} over an
 * sctpj channel on the client side, and {@link org.sctpj.netty.SctpjNioSctpServerChannel} on the
 * server side.
 */
package org.sctpj.netty;
