/**
 * The receiving half of an association's data transfer: received-TSN tracking, SACK timing and
 * content, reassembly of fragmented messages and ordered delivery per stream (RFC 9260 sections
 * 6.2, 6.5, 6.6 and 6.9). Internal to the stack; sans-IO, times are passed in.
 */
package org.sctpj.stack.rx;
