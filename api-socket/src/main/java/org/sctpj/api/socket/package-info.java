/**
 * The JDK's {@code com.sun.nio.sctp} API on sctpj: {@link org.sctpj.api.socket.SctpProvider} opens
 * {@link org.sctpj.api.socket.SctpjChannel} (a {@code com.sun.nio.sctp.SctpChannel}), {@link
 * org.sctpj.api.socket.SctpjServerChannel} and {@link org.sctpj.api.socket.SctpjMultiChannel}, and
 * selectors that serve them. Code written for the JDK's package keeps its imports and types and
 * changes only the lines that open channels; the {@code Sctpj} types add sctpj's extras
 * (timeouts, stream reconfiguration, statistics, more options in {@link
 * org.sctpj.api.socket.SctpjSocketOptions} and notifications). The module's README lists every
 * method and what differs.
 */
package org.sctpj.api.socket;
