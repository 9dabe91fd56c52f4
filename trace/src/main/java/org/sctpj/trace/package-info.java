/**
 * Capture files and an independent judge of our bytes. {@link org.sctpj.trace.PcapWriter} writes
 * SCTP packets (raw over IPv4/IPv6 or UDP-encapsulated, RFC 6951) to pcap files through pcap4j and
 * the native libpcap, with link, network and transport headers built by {@link
 * org.sctpj.trace.Frames}; {@link org.sctpj.trace.TsharkJudge} runs Wireshark's tshark over a capture
 * with CRC32c verification on and returns a {@link org.sctpj.trace.Verdict}. Used by tests and by
 * lower-layer decorators that trace traffic; the protocol core ({@code stack}) does not depend on
 * it.
 */
package org.sctpj.trace;
