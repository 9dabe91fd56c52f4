package org.sctpj.api.socket;

import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelectionKey;
import java.util.concurrent.atomic.AtomicBoolean;

/** A channel's registration with an {@link SctpjSelector}. */
final class SctpjSelectionKey extends AbstractSelectionKey {

    final SctpjSelector selector;
    final AbstractSelectableChannel channel;
    final Readiness.Source source;
    /** Queued in the selector's dirty queue (cleared when the selector takes it). */
    final AtomicBoolean dirty = new AtomicBoolean();
    /** The selector's scan that last looked at this key (so that one scan counts it once). */
    long scanned;

    private volatile int interestOps;
    private volatile int readyOps;

    SctpjSelectionKey(SctpjSelector selector, AbstractSelectableChannel channel, Readiness.Source source, int ops) {
        this.selector = selector;
        this.channel = channel;
        this.source = source;
        this.interestOps = ops;
    }

    @Override
    public SelectableChannel channel() {
        return channel;
    }

    @Override
    public Selector selector() {
        return selector;
    }

    @Override
    public int interestOps() {
        ensureValid();
        return interestOps;
    }

    /** Changes the interest set; takes effect at once, also for a select in progress. */
    @Override
    public java.nio.channels.SelectionKey interestOps(int ops) {
        ensureValid();
        if ((ops & ~channel.validOps()) != 0) {
            throw new IllegalArgumentException(
                    "operations " + ops + " are not valid for " + channel + " (valid: " + channel.validOps() + ")");
        }
        interestOps = ops;
        selector.markDirty(this);
        return this;
    }

    @Override
    public int readyOps() {
        ensureValid();
        return readyOps;
    }

    /** Selector thread: the interest set without the validity check. */
    int interest() {
        return interestOps;
    }

    /** Selector thread: sets the ready set. */
    void ready(int ops) {
        readyOps = ops;
    }

    /** Selector thread: the ready set without the validity check. */
    int ready() {
        return readyOps;
    }

    private void ensureValid() {
        if (!isValid()) {
            throw new CancelledKeyException();
        }
    }
}
