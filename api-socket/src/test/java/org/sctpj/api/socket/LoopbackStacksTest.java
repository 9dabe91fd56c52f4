package org.sctpj.api.socket;

import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.sctpj.stack.SctpOptions;

/**
 * What the channel tests over two stack threads on loopback share: a server and a client provider
 * ({@link TwoStacks}) with the LAN profile and a 5 ms delayed SACK, closed after each test.
 */
abstract class LoopbackStacksTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();
    static final SctpOptions OPTS =
            SctpOptions.LAN.toBuilder().delayedAckTime(Duration.ofMillis(5)).build();

    final TwoStacks stacks = new TwoStacks();
    final SctpProvider serverP = stacks.server(OPTS);
    final SctpProvider clientP = stacks.client(OPTS);

    @AfterEach
    void closeStacks() throws Exception {
        stacks.close();
    }
}
