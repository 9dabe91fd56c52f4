package org.sctpj.stack.wire;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.testutil.PcapReader;

class CorpusSmokeTest {
    @Test
    void firstPacketChecksumVerifies() throws Exception {
        try (var in = getClass().getResourceAsStream("/corpus/usrsctp-to-kernel_raw_handshake-data-shutdown.pcap")) {
            var frames = PcapReader.sctpPackets(in);
            for (var f : frames) {
                assertTrue(Crc32c.verify(ByteBuffer.wrap(f.sctp()), 0, f.sctp().length), "frame " + f.index());
                System.out.println(SctpPacket.decode(ByteBuffer.wrap(f.sctp()), ChecksumPolicy.VERIFY));
            }
        }
    }
}
