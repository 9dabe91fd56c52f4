package org.sctpj.api.socket;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The selection keys of one channel, and the signal that its readiness may have changed. Any
 * thread may signal (mostly the stack thread, on a message, a state change or freed send space);
 * a signal queues each key with its selector and unparks a selector waiting in select, which then
 * asks the channel what it is ready for. A channel with no key pays one array read per signal.
 */
final class Readiness {

    /** What a channel tells its selectors. */
    interface Source {
        /** The operations the channel is ready for now (a subset of its valid operations). */
        int readyOps();

        /** The channel's keys. */
        Readiness readiness();
    }

    private final CopyOnWriteArrayList<SctpjSelectionKey> keys = new CopyOnWriteArrayList<>();

    void add(SctpjSelectionKey k) {
        keys.add(k);
    }

    void remove(SctpjSelectionKey k) {
        keys.remove(k);
    }

    /** Whether any selector has the channel. */
    boolean hasKeys() {
        return !keys.isEmpty();
    }

    /** Any thread: the channel may be ready for something new. */
    void signal() {
        for (SctpjSelectionKey k : keys) {
            k.selector.markDirty(k);
        }
    }
}
