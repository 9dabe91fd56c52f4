package org.sctpj.sim.monitor;

import static org.sctpj.sim.monitor.AuthRulesTest.auth;
import static org.sctpj.sim.monitor.AuthRulesTest.authParams;
import static org.sctpj.sim.monitor.AuthRulesTest.init;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.TAG_A;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.TAG_Z;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.fromA;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.fromZ;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.monitor.ConformanceMonitorTest.Pkt;

/**
 * The monitor's ASCONF rules (RFC 5061): ASCONF and ASCONF-ACK only when both ends announced ADD-IP
 * and AUTH, always after an AUTH chunk (section 4.1.1); the first serial is the sender's Initial
 * TSN and each new one the previous plus one; one ASCONF outstanding at a time (section 5.1); a
 * retransmission repeats the ASCONF. Each rule broken once by a hand-made packet, with the
 * conforming packet next to it.
 */
class AsconfRulesTest {

    final AuthRulesTest r = new AuthRulesTest();

    @BeforeEach
    void fresh() {
        r.fresh();
    }

    /** AUTH parameters requiring ASCONF and ASCONF-ACK authenticated, plus Supported Extensions {@code ext}. */
    static byte[] params(int... ext) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(authParams(new int[] {ConformanceMonitor.ASCONF, ConformanceMonitor.ASCONF_ACK}, 1));
        int len = 4 + ext.length;
        ByteBuffer b = ByteBuffer.allocate((len + 3) & ~3);
        b.putShort((short) ConformanceMonitor.SUPPORTED_EXTENSIONS).putShort((short) len);
        for (int t : ext) {
            b.put((byte) t);
        }
        out.writeBytes(b.array());
        return out.toByteArray();
    }

    /** Up: A's Initial TSN 100, Z's 500; Z announces {@code zExt}. */
    void up(int... zExt) {
        byte[] both = params(ConformanceMonitor.ASCONF, ConformanceMonitor.ASCONF_ACK);
        r.a("COOKIE_WAIT", init(fromA(0), ConformanceMonitor.INIT, TAG_A, 100, both));
        r.z(
                ConformanceMonitor.NO_ASSOCIATION,
                init(fromZ(TAG_A), ConformanceMonitor.INIT_ACK, TAG_Z, 500, params(zExt)));
        r.a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho());
        r.z("ESTABLISHED", fromZ(TAG_A).chunk(ConformanceMonitor.COOKIE_ACK, 0));
    }

    /** An ASCONF of {@code serial}: lookup address 10.0.0.1, Add IP Address 10.0.0.{@code last}. */
    static Pkt asconf(Pkt p, int serial, int last) {
        ByteBuffer v = ByteBuffer.allocate(4 + 8 + 16);
        v.putInt(serial).putShort((short) 5).putShort((short) 8).put(new byte[] {10, 0, 0, 1});
        v.putShort((short) 0xc001).putShort((short) 16).putInt(1);
        v.putShort((short) 5).putShort((short) 8).put(new byte[] {10, 0, 0, (byte) last});
        return p.chunk(ConformanceMonitor.ASCONF, 0, v.flip());
    }

    static Pkt ack(Pkt p, int serial) {
        return p.chunk(
                ConformanceMonitor.ASCONF_ACK,
                0,
                ByteBuffer.allocate(4).putInt(serial).flip());
    }

    @Test
    void asconfNeedsAddIpAndAuthNegotiatedAndAnAuthChunk() {
        up(); // Z does not announce ADD-IP
        r.aFails("ESTABLISHED", signed(100, 2), "without ADD-IP", "RFC 5061");
        fresh();
        up(ConformanceMonitor.ASCONF, ConformanceMonitor.ASCONF_ACK);
        r.aFails("ESTABLISHED", asconf(fromA(TAG_Z), 100, 2), "ASCONF not preceded by an AUTH", "4.1.1");
        r.a("ESTABLISHED", signed(100, 2));
        r.z("ESTABLISHED", ack(auth(fromZ(TAG_A), 0, 1, 20), 100));
    }

    static ByteBuffer asconfValue(int serial, int last) {
        Pkt p = asconf(fromA(TAG_Z), serial, last);
        ByteBuffer b = p.bytes();
        int clen = b.getShort(b.position() + 12 + 2) & 0xffff;
        return b.duplicate()
                .position(b.position() + 12 + 4)
                .limit(b.position() + 12 + clen)
                .slice();
    }

    static Pkt signed(int serial, int last) {
        return auth(fromA(TAG_Z), 0, 1, 20).chunk(ConformanceMonitor.ASCONF, 0, asconfValue(serial, last));
    }

    @Test
    void serialsStartAtTheInitialTsnAndGrowByOneWithOneOutstanding() {
        up(ConformanceMonitor.ASCONF, ConformanceMonitor.ASCONF_ACK);
        r.aFails("ESTABLISHED", signed(101, 2), "expected 100", "Initial TSN");
        r.a("ESTABLISHED", signed(100, 2));
        r.a("ESTABLISHED", signed(100, 2)); // the same again: a retransmission
        r.aFails("ESTABLISHED", signed(100, 3), "other contents");
        r.aFails("ESTABLISHED", signed(101, 3), "one ASCONF outstanding at a time");
        r.z("ESTABLISHED", ack(auth(fromZ(TAG_A), 0, 1, 20), 100));
        r.aFails("ESTABLISHED", signed(102, 3), "expected 101");
        r.aFails("SHUTDOWN_SENT", signed(101, 3), "a new ASCONF in SHUTDOWN_SENT");
        r.a("ESTABLISHED", signed(101, 3));
    }
}
