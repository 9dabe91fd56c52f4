package org.sctpj.stack.wire.samples;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.cause.CookieReceivedWhileShuttingDownCause;
import org.sctpj.stack.wire.cause.DeleteLastRemainingAddressCause;
import org.sctpj.stack.wire.cause.DeleteSourceAddressCause;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.IllegalAsconfAckCause;
import org.sctpj.stack.wire.cause.InvalidMandatoryParameterCause;
import org.sctpj.stack.wire.cause.InvalidStreamIdentifierCause;
import org.sctpj.stack.wire.cause.MissingMandatoryParameterCause;
import org.sctpj.stack.wire.cause.NoAuthorizationCause;
import org.sctpj.stack.wire.cause.NoUserDataCause;
import org.sctpj.stack.wire.cause.OutOfResourceCause;
import org.sctpj.stack.wire.cause.ProtocolViolationCause;
import org.sctpj.stack.wire.cause.ResourceShortageCause;
import org.sctpj.stack.wire.cause.RestartWithNewAddressesCause;
import org.sctpj.stack.wire.cause.StaleCookieCause;
import org.sctpj.stack.wire.cause.UnrecognizedChunkTypeCause;
import org.sctpj.stack.wire.cause.UnrecognizedParametersCause;
import org.sctpj.stack.wire.cause.UnresolvableAddressCause;
import org.sctpj.stack.wire.cause.UnsupportedHmacIdentifierCause;
import org.sctpj.stack.wire.cause.UserInitiatedAbortCause;
import org.sctpj.stack.wire.chunk.UnknownChunk;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.UnknownParameter;

/**
 * Example values of every error cause, several per element where flags or optional parts differ. Used by the
 * round-trip tests, the fuzzers (as seeds) and the tshark judge (which checks that every type is
 * covered).
 */
public final class CauseSamples {
    private CauseSamples() {}

    /** An ASCONF Add IP Address parameter (RFC 5061 section 4.2.1): correlation id 1, address 10.99.0.3. */
    static final String ADD_IP_10_99_0_3 = "c0010010 00000001 00050008 0a630003";

    /** An ASCONF Delete IP Address parameter (RFC 5061 section 4.2.2): correlation id 2, address 10.99.0.3. */
    static final String DELETE_IP_10_99_0_3 = "c0020010 00000002 00050008 0a630003";

    /** At least one example of each element of this group. */
    public static List<ErrorCause> all() {
        return List.of(
                new InvalidStreamIdentifierCause(10),
                new InvalidStreamIdentifierCause(0xffff),
                // odd count: the cause ends mid-word and is padded
                MissingMandatoryParameterCause.of(7),
                MissingMandatoryParameterCause.of(7, 12),
                MissingMandatoryParameterCause.of(5, 7, 0xc000),
                // 1011321 us, as in the corpus
                new StaleCookieCause(0x000f6e79),
                new StaleCookieCause(0xffffffff),
                OutOfResourceCause.INSTANCE,
                UnresolvableAddressCause.of(new Ipv4AddressParameter(ipv4(10, 99, 0, 9))),
                // a Host Name Address (type 11) "peer.example.invalid", unpadded copy
                new UnresolvableAddressCause(Bytes.fromHex("000b0019 706565722e6578616d706c652e696e76616c696400")),
                UnrecognizedChunkTypeCause.of(new UnknownChunk(0x7e, 0, Bytes.of((byte) 1, (byte) 2, (byte) 3))),
                // Linux copies the unrecognized chunk with its padding
                new UnrecognizedChunkTypeCause(Bytes.fromHex("7e000009 0102030405000000")),
                UnrecognizedChunkTypeCause.of(new UnknownChunk(0xce, 0x5a, Bytes.EMPTY)),
                InvalidMandatoryParameterCause.INSTANCE,
                UnrecognizedParametersCause.of(
                        List.of(new UnknownParameter(0xc0ab, Bytes.of((byte) 0xde, (byte) 0xad, (byte) 0xbe)))),
                UnrecognizedParametersCause.of(List.of(
                        new UnknownParameter(0xc0ab, Bytes.of((byte) 1, (byte) 2, (byte) 3)),
                        new UnknownParameter(0xc007, Bytes.EMPTY))),
                new NoUserDataCause(0x333824ff),
                new NoUserDataCause(0),
                CookieReceivedWhileShuttingDownCause.INSTANCE,
                RestartWithNewAddressesCause.of(List.of(new Ipv4AddressParameter(ipv4(10, 99, 0, 3)))),
                RestartWithNewAddressesCause.of(List.of(
                        new Ipv4AddressParameter(ipv4(10, 99, 0, 3)), new Ipv4AddressParameter(ipv4(10, 99, 0, 4)))),
                new UserInitiatedAbortCause(Bytes.EMPTY),
                UserInitiatedAbortCause.of("kernel-client-abort"),
                UserInitiatedAbortCause.of("usrsctp-client-abort:test-vector"),
                new ProtocolViolationCause(Bytes.EMPTY),
                ProtocolViolationCause.of("FSN zero for MID=00000000, but flags=00"),
                new ProtocolViolationCause(Bytes.fromHex("54534e3a 0000030010")),
                new DeleteLastRemainingAddressCause(Bytes.fromHex(DELETE_IP_10_99_0_3)),
                new ResourceShortageCause(Bytes.fromHex(ADD_IP_10_99_0_3)),
                new DeleteSourceAddressCause(Bytes.fromHex(DELETE_IP_10_99_0_3)),
                IllegalAsconfAckCause.EMPTY,
                new IllegalAsconfAckCause(Bytes.of((byte) 0, (byte) 0, (byte) 0, (byte) 7)),
                new NoAuthorizationCause(Bytes.fromHex(ADD_IP_10_99_0_3)),
                NoAuthorizationCause.of(new Ipv4AddressParameter(ipv4(192, 0, 2, 1))),
                new UnsupportedHmacIdentifierCause(2),
                new UnsupportedHmacIdentifierCause(0xffff));
    }

    private static Inet4Address ipv4(int a, int b, int c, int d) {
        try {
            return (Inet4Address) InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
