package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * {@link UdpLayers#factory} follows the socket's options: with {@link SctpOptions#pmtuDiscovery()}
 * on, the UDP layer a bound socket opens sets DF ({@code pathMtuProbing}), which the search for the
 * path MTU needs (RFC 8899 section 3); off, it keeps the kernel's default. The layer is reached
 * through a decorator, so this also shows that {@link LowerLayerFactory#decorated} passes the
 * options on.
 */
class UdpLayersTest {

    private final StackRuntime rt = StackRuntime.start(1, StackConfig.DEFAULT.withName("udp-layers-test"));
    private final List<CallbackSocket> sockets = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        sockets.forEach(CallbackSocket::close);
        rt.close();
    }

    private UdpEncapsulation bound(SctpOptions o) throws Exception {
        List<LowerLayer> opened = new CopyOnWriteArrayList<>();
        LowerLayerFactory f = UdpLayers.factory(0).decorated(l -> {
            opened.add(l);
            return l;
        });
        CallbackSocket s = CallbackSocket.open(rt, o, f, (sock, m) -> {});
        sockets.add(s);
        s.bind(5000 + (int) (System.nanoTime() % 1000), List.of(InetAddress.getLoopbackAddress()));
        assertEquals(1, opened.size(), "layers opened by bind");
        return assertInstanceOf(UdpEncapsulation.class, opened.get(0));
    }

    @Test
    void pmtuDiscoveryTurnsPathMtuProbingOn() throws Exception {
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder().pmtuDiscovery(true).build();
        assertEquals(true, bound(o).config().pathMtuProbing(), "DF with pmtuDiscovery on");
    }

    @Test
    void withoutPmtuDiscoveryTheKernelDefaultStays() throws Exception {
        assertEquals(false, bound(SctpOptions.DEFAULTS).config().pathMtuProbing(), "DF with pmtuDiscovery off");
    }
}
