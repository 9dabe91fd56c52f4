package org.sctpj.stack.rx;

/**
 * A complete message received from the peer, ready for the user.
 *
 * @param streamId the stream it arrived on
 * @param ppid its Payload Protocol Identifier
 * @param unordered whether it was sent unordered
 * @param data the whole message
 */
public record ReceivedMessage(int streamId, int ppid, boolean unordered, byte[] data) {}
