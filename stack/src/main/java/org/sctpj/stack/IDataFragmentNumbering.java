package org.sctpj.stack;

/**
 * How an association that uses I-DATA (RFC 8260) numbers the fragments of a message after the
 * first one, chosen per association with {@link SctpOptions.Builder#iDataFragmentNumbering}. The
 * first fragment (B bit) carries the PPID and stands for FSN 0 in every case; the choice is only
 * about the Fragment Sequence Numbers of the following ones. Received fragments are understood in
 * either numbering whatever is chosen here.
 *
 * <p>Why a choice: Linux 6.1 (and the kernels around it) numbers the second fragment FSN 0, then
 * 1, 2, ...; RFC 8260 section 2.1 says 1, 2, 3, ... A Linux 6.1 receiver acknowledges fragments
 * numbered as the RFC says but never delivers their message; usrsctp, which follows the RFC, aborts
 * the association when a fragment other than the first has FSN 0. So a message of more than one
 * chunk reaches Linux 6.1 only in its numbering, and usrsctp only in the RFC's. Unfragmented
 * messages (one chunk) are the same in both.
 */
public enum IDataFragmentNumbering {
    /** FSN 1, 2, 3, ... after the first fragment, as RFC 8260 section 2.1 says; for usrsctp and sctpj peers. */
    RFC8260,

    /**
     * FSN 0, 1, 2, ... after the first fragment, as Linux 6.1 sends and expects; for a Linux kernel
     * peer. Breaks the RFC: an RFC-conforming peer (usrsctp) aborts the association on it.
     */
    LINUX_6_1,

    /**
     * The default: {@link #RFC8260} until the peer's own fragments show the Linux numbering (a
     * fragment without the B bit with FSN 0, which the RFC never sends), then {@link #LINUX_6_1}
     * for every message begun from then on. It cannot know before the peer has sent a fragmented
     * message: against a Linux 6.1 peer that has not, choose {@link #LINUX_6_1}.
     */
    AUTO
}
