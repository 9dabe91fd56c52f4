package org.sctpj.api.socket;

import java.util.ArrayList;
import java.util.List;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * A server and a client stack thread for one test, and the channels to close after it. With the
 * system property {@code sctpj.test.serverShards=N} the server's channels spread their
 * associations over N stack threads (issue 15: the socket API must work unchanged with any shard
 * count). The module's surefire argLine is fixed, so pass it through the environment: {@code
 * JAVA_TOOL_OPTIONS=-Dsctpj.test.serverShards=2 mvn -pl api-socket -am test -Dtest=SocketApiTest}.
 */
final class TwoStacks implements AutoCloseable {

    static final int SERVER_SHARDS = Integer.getInteger("sctpj.test.serverShards", 1);

    final StackRuntime serverRt = StackRuntime.start(SERVER_SHARDS, StackConfig.DEFAULT.withName("srv"));
    final StackRuntime clientRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("cli"));
    private final List<AutoCloseable> toClose = new ArrayList<>();

    /** Channels on the server's stack thread. */
    SctpProvider server(SctpOptions options) {
        return SctpProvider.of(CallbackRuntime.of(serverRt).withShardsPerSocket(SERVER_SHARDS), options);
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
