/**
 * Blocking SCTP channels in the shape of {@code com.sun.nio.sctp}: {@link
 * org.sctpj.api.socket.SctpChannel} (one-to-one), {@link org.sctpj.api.socket.SctpServerChannel}
 * (accepts one-to-one channels), {@link org.sctpj.api.socket.SctpMultiChannel} (one-to-many, with
 * {@code branch} as peel-off), {@link org.sctpj.api.socket.MessageInfo}, notifications and {@link
 * org.sctpj.api.socket.SctpStandardSocketOptions}. Code written for the JDK's package ports by
 * changing its imports; the module's README lists what differs.
 */
package org.sctpj.api.socket;
