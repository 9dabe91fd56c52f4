/**
 * ICMP for reachability (RFC 9260 appendix C; RFC 6951 section 5.5 for UDP encapsulation): what a
 * lower layer learns from an ICMP or ICMPv6 error about a packet we sent, as a sans-IO input of the
 * core ({@link org.sctpj.stack.Endpoint#handleIcmp}), and the rules the association applies to it.
 *
 * <ul>
 *   <li>{@link org.sctpj.stack.icmp.IcmpReport}: the ICMP type and code, the MTU when given, and
 *       what the ICMP quoted of our packet (addresses, ports, Verification Tag, the first chunk's
 *       type and, for an INIT, its Initiate Tag). Lower layers build it; the core never trusts it
 *       beyond what the tag check allows.
 *   <li>{@link org.sctpj.stack.icmp.IcmpHandling}: the appendix's rules ICMP5 to ICMP9 for one
 *       association: the tag check (ICMP6), so that a blind ICMP cannot end an association; a
 *       Protocol Unreachable (and over UDP a Port Unreachable, RFC 6951 section 5.5) handled as
 *       an ABORT (ICMP8); host and network unreachable counted as an error of the path (ICMP9);
 *       Packet Too Big / Fragmentation Needed recorded for path MTU discovery (ICMP7).
 * </ul>
 *
 * <p>A package of its own rather than part of {@code pathmgmt}: the report is an input every lower
 * layer builds (so it is exported, like {@code llp}), and its rules reach beyond path management
 * (an ICMP may end the setup or the association, section 9.1's effect).
 */
package org.sctpj.stack.icmp;
