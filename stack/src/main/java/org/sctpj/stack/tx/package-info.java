/**
 * The sending half of an association's data transfer: send buffer, stream scheduling,
 * fragmentation, outstanding chunks, SACK processing, retransmission and packet building (RFC 9260
 * sections 6.1 to 6.4 and 7). Internal to the stack; sans-IO, times are passed in.
 */
package org.sctpj.stack.tx;
