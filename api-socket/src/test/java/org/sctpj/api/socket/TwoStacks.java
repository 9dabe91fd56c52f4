package org.sctpj.api.socket;

import java.util.ArrayList;
import java.util.List;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/** A server and a client stack thread for one test, and the channels to close after it. */
final class TwoStacks implements AutoCloseable {

    final StackRuntime serverRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("srv"));
    final StackRuntime clientRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("cli"));
    private final List<AutoCloseable> toClose = new ArrayList<>();

    /** Channels on the server's stack thread. */
    SctpProvider server(SctpOptions options) {
        return SctpProvider.of(CallbackRuntime.of(serverRt), options);
    }

    /** Channels on the client's stack thread. */
    SctpProvider client(SctpOptions options) {
        return SctpProvider.of(CallbackRuntime.of(clientRt), options);
    }

    /** Closes {@code c} after the test. */
    <T extends AutoCloseable> T later(T c) {
        toClose.add(c);
        return c;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        clientRt.close();
        serverRt.close();
    }
}
