/**
 * SCTP over UDP (RFC 6951): {@link org.sctpj.llp.udp.UdpEncapsulation}, the lower layer that
 * carries SCTP packets in UDP datagrams, configured by {@link org.sctpj.llp.udp.UdpConfig}.
 */
package org.sctpj.llp.udp;
