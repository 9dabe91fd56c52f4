package org.sctpj.stack;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The endpoint's one queue of what it produces for its user, in order: events, and received
 * messages kept as fields (no object per message) that may refer to the packet being processed.
 * A ring of parallel arrays that grows by doubling and is reused, so that steady-state traffic
 * allocates nothing here. Owner thread only.
 */
final class Outbox {

    private SctpEvent[] events = new SctpEvent[16];
    private AssociationId[] associations = new AssociationId[16];
    private int[] streams = new int[16];
    private int[] ppids = new int[16];
    private boolean[] unordered = new boolean[16];
    private byte[][] arrays = new byte[16][];
    private ByteBuffer[] buffers = new ByteBuffer[16];
    private int[] offsets = new int[16];
    private int[] lengths = new int[16];
    private int head;
    private int size;
    /** Entries whose message is still inside a packet buffer. */
    private int views;

    private ByteBuffer viewSource;
    private ByteBuffer view;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void addEvent(SctpEvent e) {
        int i = slot();
        events[i] = e;
    }

    /**
     * A message: in {@code array} (kept as it is), or at {@code buf[offset .. offset + length)}
     * (a packet buffer, valid until the endpoint call that processes it returns).
     */
    void addMessage(
            AssociationId a, int stream, int ppid, boolean uo, byte[] array, ByteBuffer buf, int offset, int length) {
        int i = slot();
        associations[i] = a;
        streams[i] = stream;
        ppids[i] = ppid;
        unordered[i] = uo;
        arrays[i] = array;
        buffers[i] = array == null ? buf : null;
        offsets[i] = offset;
        lengths[i] = length;
        if (array == null) {
            views++;
        }
    }

    /** Copies every message still inside a packet buffer into its own array. */
    void detachViews() {
        if (views == 0) {
            return;
        }
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (events.length - 1);
            ByteBuffer b = buffers[i];
            if (b != null) {
                byte[] copy = new byte[lengths[i]];
                b.get(offsets[i], copy);
                arrays[i] = copy;
                buffers[i] = null;
            }
        }
        views = 0;
        viewSource = null;
        view = null;
    }

    /**
     * Hands the oldest entry to {@code h}. The entry leaves the queue before {@code h} runs, so
     * that what {@code h} makes the endpoint produce goes after the entries still waiting.
     */
    void handOutNext(EventHandler h) {
        int i = head;
        SctpEvent e = events[i];
        if (e != null) {
            events[i] = null;
            advance();
            h.onEvent(e);
            return;
        }
        AssociationId a = associations[i];
        int stream = streams[i];
        int ppid = ppids[i];
        boolean uo = unordered[i];
        ByteBuffer data = messageView(i);
        clear(i);
        advance();
        h.onMessage(a, stream, ppid, uo, data);
    }

    /** Removes the oldest entry as an event (a message becomes a {@link SctpEvent.MessageReceived}); null when empty. */
    SctpEvent poll() {
        if (size == 0) {
            return null;
        }
        int i = head;
        SctpEvent e = events[i];
        if (e == null) {
            byte[] data = arrays[i];
            if (data == null) {
                data = new byte[lengths[i]];
                buffers[i].get(offsets[i], data);
            }
            e = new SctpEvent.MessageReceived(associations[i], streams[i], ppids[i], unordered[i], data);
            clear(i);
        } else {
            events[i] = null;
        }
        advance();
        return e;
    }

    /** A read-only view of entry {@code i}'s message, reusing one view per packet buffer. */
    private ByteBuffer messageView(int i) {
        byte[] array = arrays[i];
        if (array != null) {
            return ByteBuffer.wrap(array).asReadOnlyBuffer();
        }
        ByteBuffer buf = buffers[i];
        if (buf != viewSource) {
            viewSource = buf;
            view = buf.asReadOnlyBuffer();
        }
        ByteBuffer v = view;
        v.limit(v.capacity());
        v.position(offsets[i]);
        v.limit(offsets[i] + lengths[i]);
        return v;
    }

    private void clear(int i) {
        associations[i] = null;
        if (buffers[i] != null) {
            buffers[i] = null;
            views--;
        }
        arrays[i] = null;
    }

    private void advance() {
        head = (head + 1) & (events.length - 1);
        size--;
    }

    /** The index of a new entry at the tail, the ring grown first if full. */
    private int slot() {
        if (size == events.length) {
            grow();
        }
        int i = (head + size) & (events.length - 1);
        size++;
        return i;
    }

    private void grow() {
        int n = events.length;
        events = unroll(events, new SctpEvent[n * 2]);
        associations = unroll(associations, new AssociationId[n * 2]);
        arrays = unroll(arrays, new byte[n * 2][]);
        buffers = unroll(buffers, new ByteBuffer[n * 2]);
        streams = unroll(streams);
        ppids = unroll(ppids);
        offsets = unroll(offsets);
        lengths = unroll(lengths);
        boolean[] u = new boolean[n * 2];
        for (int k = 0; k < n; k++) {
            u[k] = unordered[(head + k) & (n - 1)];
        }
        unordered = u;
        head = 0;
    }

    private <T> T[] unroll(T[] from, T[] to) {
        int n = from.length;
        System.arraycopy(from, head, to, 0, n - head);
        System.arraycopy(from, 0, to, n - head, head);
        return to;
    }

    private int[] unroll(int[] from) {
        int n = from.length;
        int[] to = Arrays.copyOf(from, n * 2);
        System.arraycopy(from, head, to, 0, n - head);
        System.arraycopy(from, 0, to, n - head, head);
        return to;
    }
}
