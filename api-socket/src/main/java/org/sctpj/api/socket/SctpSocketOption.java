package org.sctpj.api.socket;

import java.net.SocketOption;

/**
 * An option of an SCTP channel (as {@code com.sun.nio.sctp.SctpSocketOption}); the options are the
 * constants of {@link SctpStandardSocketOptions}.
 *
 * @param <T> the option's value type
 */
public interface SctpSocketOption<T> extends SocketOption<T> {}
