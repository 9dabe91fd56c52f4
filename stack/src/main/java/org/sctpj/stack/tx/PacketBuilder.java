package org.sctpj.stack.tx;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sctpj.stack.wire.Crc32c;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.IDataChunk;
import org.sctpj.stack.wire.chunk.NrSackChunk;
import org.sctpj.stack.wire.chunk.SackChunk;

/**
 * Builds one SCTP packet at a time (RFC 9260 section 3) in a reusable heap buffer, or straight into
 * a buffer of the caller ({@link #target}): {@link #reset} writes the common header, {@link
 * #tryAdd}/{@link #tryAddData} append chunks while they fit in the path's packet size, {@link
 * #finish} fills the CRC32c and returns a copy of the packet's bytes, {@link #finishInPlace} fills
 * it and leaves the packet where it was built (nothing allocated). With {@link #authenticate} it
 * also bundles and fills the AUTH chunk of RFC 4895.
 */
public final class PacketBuilder {

    private final int capacity;
    /** The own buffer, made on first use: a builder that only ever targets a caller's buffer (the
     * stack thread's case) costs no packet-sized buffer per association. */
    private ByteBuffer own;

    private boolean targetingOwn = true;
    private ByteBuffer buf;
    /** The target buffer's position when {@link #target} was called. */
    private int targetStart;
    /** Absolute index of the packet's first byte in {@link #buf}. */
    private int base;
    /** Absolute index just past the last byte the packet may use. */
    private int limit;

    private int chunkCount;
    private int dataChunkCount;
    private int dataBytes;
    private boolean retransmission;
    private boolean fragmentable;

    /** Authenticates this packet (RFC 4895 section 6.2), or null. */
    private PacketSigner signer;
    /** Absolute index of the AUTH chunk in {@link #buf}, or -1 while none was written. */
    private int authOffset = -1;

    /**
     * A builder whose packets can hold up to {@code capacity} bytes.
     *
     * @throws IllegalArgumentException if capacity is below 16 bytes (header plus a chunk header)
     */
    public PacketBuilder(int capacity) {
        if (capacity < SctpPacket.HEADER_LENGTH + Chunk.HEADER_LENGTH) {
            throw new IllegalArgumentException("capacity must be at least 16 bytes, was " + capacity);
        }
        this.capacity = capacity;
        limit = capacity;
    }

    /**
     * Builds the next packets into {@code out}, from its position, within its limit (which caps
     * the packet size), until {@link #targetOwn()}. The builder keeps writing at absolute indexes
     * and moves {@code out}'s position while it writes.
     *
     * @throws IllegalArgumentException if {@code out} is read-only or has fewer than 16 bytes left
     */
    public void target(ByteBuffer out) {
        if (out.isReadOnly()) {
            throw new IllegalArgumentException("the packet buffer is read-only: give a writable buffer");
        }
        if (out.remaining() < SctpPacket.HEADER_LENGTH + Chunk.HEADER_LENGTH) {
            throw new IllegalArgumentException("the packet buffer has " + out.remaining()
                    + " bytes left: give at least the path MTU (65535 bytes fits any packet)");
        }
        buf = out;
        targetingOwn = false;
        targetStart = out.position();
    }

    /** Builds the next packets in the builder's own heap buffer again (the default). */
    public void targetOwn() {
        targetingOwn = true;
    }

    /**
     * Starts a new packet with the common header.
     *
     * @param maxBytes the largest SCTP packet for the path: MTU - IP header (20 for IPv4, 40 for
     *     IPv6) - encapsulation overhead; capped at the builder's capacity
     * @throws IllegalArgumentException for ports outside 0..65535 or maxBytes below 16
     */
    public void reset(int srcPort, int dstPort, int verificationTag, int maxBytes) {
        Wire.checkU16("srcPort", srcPort);
        Wire.checkU16("dstPort", dstPort);
        if (maxBytes < SctpPacket.HEADER_LENGTH + Chunk.HEADER_LENGTH) {
            throw new IllegalArgumentException("maxBytes must be at least 16, was " + maxBytes);
        }
        if (targetingOwn) {
            if (own == null) {
                own = ByteBuffer.allocate(capacity);
            }
            buf = own;
            buf.clear();
            base = 0;
        } else {
            // Start over where the target began: a packet started and abandoned (nothing fitted
            // for one path, the next path is tried) must not shift the next one.
            buf.position(targetStart);
            base = targetStart;
        }
        limit = base + Math.min(maxBytes, buf.limit() - base);
        buf.putShort((short) srcPort);
        buf.putShort((short) dstPort);
        buf.putInt(verificationTag);
        buf.putInt(0);
        chunkCount = 0;
        dataChunkCount = 0;
        dataBytes = 0;
        signer = null;
        authOffset = -1;
        retransmission = false;
        fragmentable = false;
    }

    /**
     * Lets this packet grow past its path's size for one chunk of {@code chunkBytes} (padding
     * excluded) that fits no packet of the path any more: a DATA chunk cut for a larger path MTU,
     * to be resent after the MTU fell (RFC 9260 section 6.9 forbids cutting it again). The packet
     * is then {@link #fragmentable()}: the lower layer sends it with DF clear, for IP to fragment
     * (RFC 8899 section 4.4 leaves such packets to the network layer). Returns false when even the
     * buffer cannot hold it.
     */
    public boolean allowOversize(int chunkBytes) {
        int want = buf.position() + Wire.pad4(chunkBytes);
        if (want > buf.limit()) {
            return false;
        }
        limit = Math.max(limit, want);
        fragmentable = true;
        return true;
    }

    /** Whether {@link #allowOversize} let this packet grow past its path's size. */
    public boolean fragmentable() {
        return fragmentable;
    }

    /** Notes that the packet carries a retransmitted DATA chunk (it is then sent Not-ECT). */
    public void markRetransmission() {
        retransmission = true;
    }

    /** Whether a retransmitted DATA chunk went into this packet since the last {@link #reset}. */
    public boolean hasRetransmission() {
        return retransmission;
    }

    /**
     * Authenticates the packet started by the last {@link #reset} (RFC 4895 section 6.2): an AUTH
     * chunk goes right before the first chunk of a type {@code s} says the peer requires to be
     * authenticated, and its HMAC is filled by {@link #finishInPlace}. Room for the AUTH chunk is
     * kept from now on, so that the size accounting ({@link #remaining}, the data payload room)
     * never lets an authenticated packet exceed the path's packet size. Call before any chunk is
     * added; {@code null} leaves the packet unauthenticated.
     *
     * @throws IllegalStateException if chunks were already added
     */
    public void authenticate(PacketSigner s) {
        if (chunkCount != 0) {
            throw new IllegalStateException("authenticate must be called before the first chunk of the packet");
        }
        signer = s;
    }

    /** The AUTH chunk's room still kept in this packet (0 once it is written or without a signer). */
    private int authReserve() {
        return signer != null && authOffset < 0 ? signer.authLength() : 0;
    }

    /** Writes the AUTH chunk before a chunk of {@code type} when the peer requires it (room checked). */
    private void authBefore(int type) {
        if (signer != null && authOffset < 0 && signer.requires(type)) {
            authOffset = buf.position();
            signer.writeAuth(buf);
            chunkCount++;
        }
    }

    /** Whether the packet carries an AUTH chunk. */
    public boolean hasAuth() {
        return authOffset >= 0;
    }

    /** Bytes still free in this packet (the room an AUTH chunk will take is not free). */
    public int remaining() {
        return limit - buf.position() - authReserve();
    }

    /**
     * The most user data one more DATA chunk may carry in this packet (its header and padding
     * counted); 0 if not even one byte fits.
     */
    public int maxDataPayload() {
        return Math.max(0, (remaining() & ~3) - DataChunk.FIXED_LENGTH);
    }

    /**
     * The most user data one I-DATA chunk (RFC 8260 section 2.1, a 20-byte header) may carry in
     * this packet (its header and padding counted); 0 if not even one byte fits.
     */
    public int maxIDataPayload() {
        return Math.max(0, (remaining() & ~3) - IDataChunk.FIXED_LENGTH);
    }

    /** The most user data one I-DATA chunk may carry in an empty packet of this size. */
    public int maxIDataPayloadEmpty() {
        return Math.max(0, ((limit - base - SctpPacket.HEADER_LENGTH - authReserve()) & ~3) - IDataChunk.FIXED_LENGTH);
    }

    /** The most user data one DATA chunk may carry in an empty packet of this size. */
    public int maxDataPayloadEmpty() {
        return Math.max(0, ((limit - base - SctpPacket.HEADER_LENGTH - authReserve()) & ~3) - DataChunk.FIXED_LENGTH);
    }

    /** True if no chunk has been added since {@link #reset}. */
    public boolean isEmpty() {
        return chunkCount == 0;
    }

    /** Appends a chunk if it fits (padding included); returns false, adding nothing, if not. */
    public boolean tryAdd(Chunk c) {
        if (c.encodedLength() > remaining()) {
            return false;
        }
        authBefore(c.type());
        c.encode(buf);
        chunkCount++;
        if (c instanceof DataChunk d) {
            dataChunkCount++;
            dataBytes += d.userData().length();
        } else if (c instanceof IDataChunk d) {
            dataChunkCount++;
            dataBytes += d.userData().length();
        }
        return true;
    }

    /**
     * Appends a SACK chunk (RFC 9260 section 3.3.4) from primitive arrays if it fits; returns
     * false, adding nothing, if not.
     */
    public boolean tryAddSack(
            int cumTsnAck, int aRwnd, int[] gapStarts, int[] gapEnds, int gapCount, int[] dups, int dupCount) {
        if (SackChunk.length(gapCount, dupCount) > remaining()) {
            return false;
        }
        authBefore(ChunkType.SACK);
        SackChunk.write(buf, cumTsnAck, aRwnd, gapStarts, gapEnds, gapCount, dups, dupCount);
        chunkCount++;
        return true;
    }

    /**
     * Appends an NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08 section 4.1) whose out-of-order
     * TSNs are all non-renegable: no Gap Ack Block, {@code nrCount} NR Gap Ack Blocks, the
     * duplicates; returns false, adding nothing, if it does not fit.
     */
    public boolean tryAddNrSack(
            int cumTsnAck, int aRwnd, int[] nrStarts, int[] nrEnds, int nrCount, int[] dups, int dupCount) {
        if (NrSackChunk.length(0, nrCount, dupCount) > remaining()) {
            return false;
        }
        authBefore(ChunkType.NR_SACK);
        NrSackChunk.writeNonRenegable(buf, cumTsnAck, aRwnd, nrStarts, nrEnds, nrCount, dups, dupCount);
        chunkCount++;
        return true;
    }

    /**
     * Appends a DATA chunk (RFC 9260 section 3.3.1) carrying {@code data[off..off+len)} if it fits;
     * returns false, adding nothing, if not.
     *
     * @param flags the DATA flags byte (I, U, B, E)
     * @throws IllegalArgumentException if len is below 1
     */
    public boolean tryAddData(int flags, int tsn, int sid, int ssn, int ppid, byte[] data, int off, int len) {
        if (len < 1) {
            throw new IllegalArgumentException("a DATA chunk carries at least one byte, len was " + len);
        }
        if (Wire.pad4(DataChunk.FIXED_LENGTH + len) > remaining()) {
            return false;
        }
        authBefore(ChunkType.DATA);
        DataChunk.write(buf, flags, tsn, sid, ssn, ppid, data, off, len);
        chunkCount++;
        dataChunkCount++;
        dataBytes += len;
        return true;
    }

    /**
     * Appends an I-DATA chunk (RFC 8260 section 2.1) carrying {@code data[off..off+len)} if it
     * fits; returns false, adding nothing, if not. It counts as a DATA chunk in {@link
     * #dataChunkCount()} and {@link #dataBytes()}.
     *
     * @param flags the I-DATA flags byte (I, U, B, E)
     * @param ppidOrFsn the PPID on the first fragment (B bit), else the FSN
     * @throws IllegalArgumentException if len is below 1
     */
    public boolean tryAddIData(int flags, int tsn, int sid, int mid, int ppidOrFsn, byte[] data, int off, int len) {
        if (len < 1) {
            throw new IllegalArgumentException("an I-DATA chunk carries at least one byte, len was " + len);
        }
        if (Wire.pad4(IDataChunk.FIXED_LENGTH + len) > remaining()) {
            return false;
        }
        authBefore(ChunkType.I_DATA);
        IDataChunk.write(buf, flags, tsn, sid, mid, ppidOrFsn, data, off, len);
        chunkCount++;
        dataChunkCount++;
        dataBytes += len;
        return true;
    }

    /** Chunks of any type in the packet. */
    public int chunkCount() {
        return chunkCount;
    }

    /** DATA chunks in the packet. */
    public int dataChunkCount() {
        return dataChunkCount;
    }

    /** User data bytes in the packet's DATA chunks. */
    public int dataBytes() {
        return dataBytes;
    }

    /** The packet's length so far. */
    public int length() {
        return buf.position() - base;
    }

    /** Fills the CRC32c checksum and returns a copy of exactly the packet's bytes. */
    public byte[] finish() {
        int n = finishInPlace();
        if (targetingOwn) {
            return Arrays.copyOf(own.array(), n);
        }
        byte[] copy = new byte[n];
        buf.get(base, copy);
        return copy;
    }

    /**
     * Fills the CRC32c checksum and returns the packet's length; the packet stays where it was
     * built: from index 0 of the own buffer, or from the {@link #target} buffer's position at
     * {@link #reset} (whose position is then just past the packet).
     */
    public int finishInPlace() {
        int n = buf.position() - base;
        if (authOffset >= 0) {
            signer.sign(buf, authOffset, base + n);
        }
        Crc32c.fill(buf, base, n);
        return n;
    }
}
