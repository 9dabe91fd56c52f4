package org.sctpj.llp.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Field;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.sctpj.nativeio.Linux;
import org.sctpj.nativeio.Native;

/**
 * {@link UdpConfig#pathMtuProbing()} on the native path: every socket is in PMTUDISC_PROBE (DF on
 * every datagram, no local fragmentation, for the core's path MTU probes); without it the kernel's
 * default stays. Read back with getsockopt.
 */
class PathMtuProbingTest {

    static int mode(UdpEncapsulation l) throws Exception {
        Field f = UdpEncapsulation.class.getDeclaredField("socks");
        f.setAccessible(true);
        UdpEncapsulation.Sock s = ((UdpEncapsulation.Sock[]) f.get(l))[0];
        return Native.getIntOption(s.fd, Linux.IPPROTO_IP, Linux.IP_MTU_DISCOVER);
    }

    @Test
    void probingSetsDfOnEveryDatagram() throws Exception {
        assumeTrue(NativeUdp.unavailableReason() == null, "the native UDP path is not available here");
        UdpConfig.Builder b = UdpConfig.builder()
                .localPort(0)
                .bind(InetAddress.getLoopbackAddress())
                .nativeIo(NativeIo.ON);
        try (UdpEncapsulation on = UdpEncapsulation.open(b.pathMtuProbing(true).build());
                UdpEncapsulation off =
                        UdpEncapsulation.open(b.pathMtuProbing(false).build())) {
            assertEquals(Linux.IP_PMTUDISC_PROBE, mode(on));
            int kernelDefault = mode(off);
            assertEquals(kernelDefault == Linux.IP_PMTUDISC_PROBE, false, "the default is not PROBE");
        }
    }
}
