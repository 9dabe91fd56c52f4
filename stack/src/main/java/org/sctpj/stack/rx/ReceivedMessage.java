package org.sctpj.stack.rx;

/**
 * A message received from the peer, ready for the user: a whole message, or one part of a message
 * delivered in parts (RFC 9260 section 6.9, partial delivery).
 *
 * @param streamId the stream it arrived on
 * @param ppid its Payload Protocol Identifier
 * @param unordered whether it was sent unordered
 * @param data the whole message, or the bytes of this part
 * @param part whether this is one part of a message delivered in parts
 * @param last whether this ends the message (true for a whole message)
 */
public record ReceivedMessage(int streamId, int ppid, boolean unordered, byte[] data, boolean part, boolean last) {

    /** A whole message. */
    public ReceivedMessage(int streamId, int ppid, boolean unordered, byte[] data) {
        this(streamId, ppid, unordered, data, false, true);
    }
}
