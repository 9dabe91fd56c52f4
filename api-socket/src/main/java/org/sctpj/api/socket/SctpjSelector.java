package org.sctpj.api.socket;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.IllegalSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelectionKey;
import java.nio.channels.spi.AbstractSelector;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A selector for sctpj's channels ({@link SctpProvider#openSelector()}); it serves no other
 * channel ({@link IllegalSelectorException}). Level-triggered as the JDK's selectors: a key is
 * selected while its channel is ready for an operation of its interest set.
 *
 * <p>No polling: a channel signals its keys when its readiness may have changed (the stack thread
 * does, after a message, a state change or freed send space); the selector then asks only those
 * channels, plus the ones it selected last time (they may still be ready). Between signals a
 * thread in {@code select} is parked ({@link LockSupport}) and uses no CPU, however many channels
 * are registered. {@link #wakeup()}, interruption, a new registration or a changed interest set
 * unpark it.
 */
final class SctpjSelector extends AbstractSelector {

    private final Set<SelectionKey> keys = ConcurrentHashMap.newKeySet();
    private final Set<SelectionKey> publicKeys = Collections.unmodifiableSet(keys);
    private final Set<SelectionKey> selected = new HashSet<>();
    private final Set<SelectionKey> publicSelected = new Ungrowable(selected);
    private final ConcurrentLinkedQueue<SctpjSelectionKey> dirty = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private volatile Thread waiter;
    /** Keys found ready at the last scan: looked at again by the next (level-triggered). */
    private List<SctpjSelectionKey> recheck = new ArrayList<>();

    private List<SctpjSelectionKey> spare = new ArrayList<>();
    private long scan;

    SctpjSelector(SctpProvider provider) {
        super(provider);
    }

    @Override
    public Set<SelectionKey> keys() {
        ensureOpen();
        return publicKeys;
    }

    @Override
    public Set<SelectionKey> selectedKeys() {
        ensureOpen();
        return publicSelected;
    }

    @Override
    public int selectNow() throws IOException {
        return select(0L, false);
    }

    @Override
    public int select(long timeout) throws IOException {
        if (timeout < 0) {
            throw new IllegalArgumentException("negative timeout: " + timeout);
        }
        return select(timeout == 0 ? -1 : timeout * 1_000_000L, true);
    }

    @Override
    public int select() throws IOException {
        return select(-1, true);
    }

    @Override
    public Selector wakeup() {
        wakeupPending.set(true);
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        return this;
    }

    /** Any thread: {@code k}'s channel may be ready for something new. */
    void markDirty(SctpjSelectionKey k) {
        if (k.dirty.compareAndSet(false, true)) {
            dirty.add(k);
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    /**
     * @param nanos how long to wait for a ready key: negative without limit, 0 not at all
     */
    private int select(long nanos, boolean mayBlock) throws IOException {
        ensureOpen();
        synchronized (this) {
            synchronized (publicSelected) {
                processCancelled();
                long deadline = nanos > 0 ? System.nanoTime() + nanos : 0;
                int n = 0;
                if (mayBlock) {
                    begin();
                }
                try {
                    waiter = Thread.currentThread();
                    while (true) {
                        n += scan();
                        if (n > 0 || nanos == 0 || !mayBlock) {
                            break;
                        }
                        if (wakeupPending.get() || Thread.currentThread().isInterrupted() || !isOpen()) {
                            break;
                        }
                        if (!dirty.isEmpty()) {
                            continue;
                        }
                        if (nanos < 0) {
                            LockSupport.park(this);
                        } else {
                            long left = deadline - System.nanoTime();
                            if (left <= 0) {
                                break;
                            }
                            LockSupport.parkNanos(this, left);
                        }
                    }
                } finally {
                    waiter = null;
                    if (mayBlock) {
                        end();
                    }
                }
                wakeupPending.set(false);
                processCancelled();
                return n;
            }
        }
    }

    /** Looks at the dirty keys and those ready last time; returns how many ready sets changed. */
    private int scan() {
        long stamp = ++scan;
        List<SctpjSelectionKey> look = recheck;
        recheck = spare;
        spare = look;
        for (SctpjSelectionKey k; (k = dirty.poll()) != null; ) {
            k.dirty.set(false);
            look.add(k);
        }
        int n = 0;
        for (SctpjSelectionKey k : look) {
            if (k.scanned == stamp || !k.isValid()) {
                continue;
            }
            k.scanned = stamp;
            int ready = k.source.readyOps() & k.interest();
            if (ready == 0) {
                continue;
            }
            recheck.add(k);
            if (selected.add(k)) {
                k.ready(ready);
                n++;
            } else if ((k.ready() | ready) != k.ready()) {
                k.ready(k.ready() | ready);
                n++;
            }
        }
        look.clear();
        return n;
    }

    private void processCancelled() {
        Set<SelectionKey> cancelled = cancelledKeys();
        synchronized (cancelled) {
            for (SelectionKey k : cancelled) {
                drop((SctpjSelectionKey) k);
            }
            cancelled.clear();
        }
    }

    private void drop(SctpjSelectionKey k) {
        keys.remove(k);
        selected.remove(k);
        k.source.readiness().remove(k);
        deregister(k);
    }

    @Override
    protected SelectionKey register(AbstractSelectableChannel ch, int ops, Object att) {
        if (!(ch instanceof Readiness.Source src)) {
            throw new IllegalSelectorException();
        }
        ensureOpen();
        SctpjSelectionKey k = new SctpjSelectionKey(this, ch, src, ops);
        k.attach(att);
        keys.add(k);
        src.readiness().add(k);
        markDirty(k);
        return k;
    }

    @Override
    protected void implCloseSelector() throws IOException {
        wakeup();
        synchronized (this) {
            synchronized (publicSelected) {
                for (SelectionKey k : new ArrayList<>(keys)) {
                    ((SctpjSelectionKey) k).source.readiness().remove((SctpjSelectionKey) k);
                    deregister((AbstractSelectionKey) k);
                }
                keys.clear();
                selected.clear();
                dirty.clear();
                recheck.clear();
            }
        }
    }

    private void ensureOpen() {
        if (!isOpen()) {
            throw new ClosedSelectorException();
        }
    }

    /** The selected-key set as the JDK's: keys may be removed, not added. */
    private static final class Ungrowable extends AbstractSet<SelectionKey> {
        private final Set<SelectionKey> s;

        Ungrowable(Set<SelectionKey> s) {
            this.s = s;
        }

        @Override
        public Iterator<SelectionKey> iterator() {
            return s.iterator();
        }

        @Override
        public int size() {
            return s.size();
        }

        @Override
        public boolean contains(Object o) {
            return s.contains(o);
        }

        @Override
        public boolean remove(Object o) {
            return s.remove(o);
        }

        @Override
        public void clear() {
            s.clear();
        }

        @Override
        public boolean add(SelectionKey k) {
            throw new UnsupportedOperationException("the selected-key set cannot be added to");
        }
    }
}
