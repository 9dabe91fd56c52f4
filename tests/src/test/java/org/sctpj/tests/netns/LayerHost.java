package org.sctpj.tests.netns;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.timers.EndpointHandle;
import org.sctpj.timers.EndpointListener;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackThread;

/**
 * One side of a namespace test over a lower layer the test opened itself (raw IP with options
 * {@link NetnsHost} does not set, UDP encapsulation): the endpoint on a stack thread of its own,
 * every event kept in {@link #events}.
 */
final class LayerHost implements AutoCloseable {
    final StackThread thread;
    final EndpointHandle handle;
    final List<SctpEvent> events = new CopyOnWriteArrayList<>();
    private final String name;

    /** Starts {@code endpoint} (made with the thread's clock) over {@code layer} on a thread named {@code name}. */
    LayerHost(String name, LowerLayer layer, LongFunction<Endpoint> endpoint) {
        this.name = name;
        thread = new StackThread(StackConfig.DEFAULT.withName(name));
        handle = thread.register(endpoint.apply(thread.now()), layer, new EndpointListener() {
            @Override
            public void onEvent(EndpointHandle h, SctpEvent e) {
                events.add(e);
            }
        });
        thread.start();
    }

    /** Runs {@code f} with the endpoint on the stack thread and returns its result (10 s at most). */
    <T> T call(Function<Endpoint, T> f) throws Exception {
        return NetnsHost.call(handle, name, f);
    }

    /** Messages received so far. */
    long messages() {
        return events.stream()
                .filter(e -> e instanceof SctpEvent.MessageReceived)
                .count();
    }

    @Override
    public void close() {
        thread.close();
    }
}
