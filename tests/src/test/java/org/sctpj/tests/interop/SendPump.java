package org.sctpj.tests.interop;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * The sending side of {@link OurStack}: messages queue here (from any thread) and {@link #pump}
 * (on the stack thread) hands them to the endpoint in order until it answers WOULD_BLOCK.
 *
 * <p>The endpoint runs its event handler at the end of every endpoint call, before the call
 * returns (see {@code EventHandler}): a {@code SendSpaceAvailable} event, and so a call of {@link
 * #pump} from the handler, can come from inside the very {@code send} that the pump is making.
 * Such a nested call must not send the message at the head of the queue a second time (it is taken
 * off the queue only when its send has returned): it only asks the running pump for one more pass,
 * which then goes on with the next message and retries after WOULD_BLOCK, since room was freed.
 *
 * @param <T> a queued message
 */
final class SendPump<T> {

    /** Hands one message to the endpoint: true if accepted (or given up), false on WOULD_BLOCK. */
    @FunctionalInterface
    interface Sender<T> extends Predicate<T> {}

    private final Queue<T> queue = new ConcurrentLinkedQueue<>();
    private boolean pumping;
    private boolean again;

    /** Queues {@code m} (any thread); a {@link #pump} on the stack thread sends it. */
    void add(T m) {
        queue.add(m);
    }

    /**
     * Stack thread: sends queued messages with {@code sender} until it would block or the queue is
     * empty. Called again from inside {@code sender} (the endpoint's handler runs within the
     * send), it returns at once and the running pump makes another pass.
     */
    void pump(Sender<T> sender) {
        if (pumping) {
            again = true;
            return;
        }
        pumping = true;
        try {
            do {
                again = false;
                for (T m = queue.peek(); m != null; m = queue.peek()) {
                    if (!sender.test(m)) {
                        break;
                    }
                    queue.poll();
                }
            } while (again);
        } finally {
            pumping = false;
        }
    }

    /** True when no message waits. */
    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** Drops every waiting message. */
    void clear() {
        queue.clear();
    }
}
