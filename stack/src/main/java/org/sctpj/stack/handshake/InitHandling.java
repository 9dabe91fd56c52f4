package org.sctpj.stack.handshake;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.Extension;
import org.sctpj.stack.auth.KeyVector;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.UnrecognizedAction;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.UnrecognizedParametersCause;
import org.sctpj.stack.wire.cause.UnresolvableAddressCause;
import org.sctpj.stack.wire.param.AdaptationLayerIndicationParameter;
import org.sctpj.stack.wire.param.AddressParameter;
import org.sctpj.stack.wire.param.ChunkListParameter;
import org.sctpj.stack.wire.param.CookiePreservativeParameter;
import org.sctpj.stack.wire.param.EcnCapableParameter;
import org.sctpj.stack.wire.param.ForwardTsnSupportedParameter;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Ipv6AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ParameterType;
import org.sctpj.stack.wire.param.RandomParameter;
import org.sctpj.stack.wire.param.RequestedHmacAlgorithmParameter;
import org.sctpj.stack.wire.param.StateCookieParameter;
import org.sctpj.stack.wire.param.SupportedAddressTypesParameter;
import org.sctpj.stack.wire.param.SupportedExtensionsParameter;
import org.sctpj.stack.wire.param.UnknownParameter;
import org.sctpj.stack.wire.param.UnrecognizedParameter;

/**
 * Reading the parameters of a received INIT or INIT ACK (RFC 9260 sections 3.3.2, 3.3.3, 5.1.2
 * and 3.2.1), and building our own.
 */
public final class InitHandling {
    private InitHandling() {}

    /** What the parameters of an INIT or INIT ACK say. */
    public static final class PeerParams {
        /** Peer addresses listed (besides the packet's source address). */
        public final List<InetAddress> addresses = new ArrayList<>();
        /** The State Cookie (INIT ACK only), or null. */
        public Bytes cookie;
        /** Cookie Preservative increment in milliseconds, or 0. */
        public long cookiePreservativeMillis;
        /** Unrecognized parameters to report back (action bits x1). */
        public final List<Parameter> toReport = new ArrayList<>();
        /** Set when an unrecognized parameter with action 00/01 stops processing the chunk. */
        public boolean stop;
        /** Set when an unrecognized parameter with action 01 must be reported even though we stop. */
        public boolean stopReport;
        /** A cause that makes the INIT fail (host name address), or null. */
        public ErrorCause abortCause;
        /** Whether the peer supports IPv4 / IPv6 addresses (Supported Address Types, 3.3.2.1). */
        public boolean peerSupportsV4 = true;
        /** See {@link #peerSupportsV4}. */
        public boolean peerSupportsV6 = true;
        /** The extensions the peer announced, as a {@link Negotiation#bit} mask. */
        public int extensions;
        /** The peer's Adaptation Code Point (RFC 5061 section 4.2.6), or -1 when it sent none. */
        public long adaptation = -1;
        /**
         * The peer's AUTH key vector (RFC 4895 section 6.1: RANDOM, CHUNKS, HMAC-ALGO), or null
         * when it did not send both RANDOM and HMAC-ALGO (then it does not support AUTH, whatever
         * its Supported Extensions say).
         */
        public KeyVector auth;

        private RandomParameter random;
        private ChunkListParameter chunks;
        private RequestedHmacAlgorithmParameter hmacs;
    }

    /** Reads the parameters of a received INIT or INIT ACK. */
    public static PeerParams read(List<Parameter> params) {
        PeerParams out = new PeerParams();
        for (Parameter p : params) {
            if (p instanceof Ipv4AddressParameter a4) {
                out.addresses.add(a4.address());
            } else if (p instanceof Ipv6AddressParameter a6) {
                out.addresses.add(a6.address());
            } else if (p instanceof StateCookieParameter sc) {
                out.cookie = sc.cookie();
            } else if (p instanceof CookiePreservativeParameter cp) {
                out.cookiePreservativeMillis = Integer.toUnsignedLong(cp.lifeSpanIncrementMillis());
            } else if (p instanceof SupportedAddressTypesParameter sat) {
                out.peerSupportsV4 = sat.addressTypes().contains(ParameterType.IPV4_ADDRESS);
                out.peerSupportsV6 = sat.addressTypes().contains(ParameterType.IPV6_ADDRESS);
            } else if (p instanceof ForwardTsnSupportedParameter
                    || p instanceof SupportedExtensionsParameter
                    || p instanceof EcnCapableParameter) {
                out.extensions = Negotiation.announced(out.extensions, p);
            } else if (p instanceof RandomParameter r) {
                out.random = out.random == null ? r : out.random;
            } else if (p instanceof ChunkListParameter c) {
                out.chunks = out.chunks == null ? c : out.chunks;
            } else if (p instanceof RequestedHmacAlgorithmParameter h) {
                out.hmacs = out.hmacs == null ? h : out.hmacs;
            } else if (p instanceof AdaptationLayerIndicationParameter ali) {
                out.adaptation = Integer.toUnsignedLong(ali.indication());
            } else if (p.type() == ParameterType.HOST_NAME_ADDRESS) {
                // RFC 9260 section 5.1.2: a Host Name Address is not supported; ABORT with an
                // Unresolvable Address cause that quotes it.
                out.abortCause = new UnresolvableAddressCause(Bytes.of(encode(p)));
            } else if (p instanceof UnknownParameter u) {
                UnrecognizedAction action = u.action();
                if (action.report()) {
                    out.toReport.add(u);
                }
                if (!action.continueProcessing()) {
                    out.stop = true;
                    out.stopReport = action.report();
                    break;
                }
            }
            // Known parameters we do not use are ignored.
        }
        if (out.random != null && out.hmacs != null) {
            // RFC 4895 section 6.1: the peer sends AUTH's parameters once each (the first counts).
            // Kept whole (the key vector is what was sent); Authentication.refusal bounds them
            // before a State Cookie or an association keeps them.
            out.auth = new KeyVector(
                    out.random.random(), out.chunks == null ? null : out.chunks.chunkTypes(), out.hmacs.hmacIds());
            out.extensions |= Negotiation.bit(Extension.AUTH);
        } else {
            out.extensions &= ~Negotiation.bit(Extension.AUTH);
        }
        return out;
    }

    /** The TLV bytes of a parameter, unpadded, for quoting in causes. */
    static byte[] encode(Parameter p) {
        ByteBuffer b = ByteBuffer.allocate(p.length());
        p.encode(b, false);
        return b.array();
    }

    /** The Unrecognized Parameter parameters to put in an INIT ACK (RFC 9260 section 3.3.3). */
    public static List<Parameter> unrecognizedForInitAck(List<Parameter> toReport) {
        List<Parameter> out = new ArrayList<>(toReport.size());
        for (Parameter p : toReport) {
            out.add(new UnrecognizedParameter(Bytes.of(encode(p))));
        }
        return out;
    }

    /** The Unrecognized Parameters cause for an ERROR or ABORT. */
    public static UnrecognizedParametersCause unrecognizedCause(List<Parameter> toReport) {
        int n = 0;
        for (Parameter p : toReport) {
            n += p.encodedLength();
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (Parameter p : toReport) {
            p.encode(b, true);
        }
        return new UnrecognizedParametersCause(Bytes.of(b.array()));
    }

    /** Our address parameters for INIT / INIT ACK: none when we have a single address (5.1.2). */
    public static List<Parameter> localAddressParams(List<InetAddress> locals) {
        List<Parameter> out = new ArrayList<>();
        if (locals.size() <= 1) {
            return out;
        }
        for (InetAddress a : locals) {
            if (!a.isAnyLocalAddress()) {
                out.add(AddressParameter.of(a));
            }
        }
        return out;
    }

    /** The Supported Address Types parameter for our INIT (RFC 9260 section 3.3.2.1). */
    public static Parameter supportedAddressTypes(List<InetAddress> locals) {
        boolean v4 = false;
        boolean v6 = false;
        for (InetAddress a : locals) {
            if (a instanceof java.net.Inet4Address) {
                v4 = true;
            } else {
                v6 = true;
            }
        }
        List<Integer> types = new ArrayList<>();
        if (v4 || !v6) {
            types.add(ParameterType.IPV4_ADDRESS);
        }
        if (v6) {
            types.add(ParameterType.IPV6_ADDRESS);
        }
        return new SupportedAddressTypesParameter(types);
    }
}
