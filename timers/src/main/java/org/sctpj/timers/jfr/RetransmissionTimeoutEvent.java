package org.sctpj.timers.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** JFR event: T3-rtx of a path expired (RFC 9260 section 6.3.3): its data is retransmitted. */
@Name("org.sctpj.RetransmissionTimeout")
@Label("SCTP Retransmission Timeout")
@Category({"sctpj", "Path"})
@Description("T3-rtx of a path expired (RFC 9260 section 6.3.3)")
public final class RetransmissionTimeoutEvent extends jdk.jfr.Event {
    /** The association's id within its endpoint. */
    @Label("Association")
    public int association;

    /** The peer address of the path. */
    @Label("Peer")
    public String peer;

    /** Expirations since the last event of the path (usually 1). */
    @Label("Count")
    public long count;

    /** The path's RTO after the back-off. */
    @Label("RTO")
    @Timespan(Timespan.NANOSECONDS)
    public long rto;

    /** The path's congestion window after the timeout. */
    @Label("Congestion Window")
    @DataAmount(DataAmount.BYTES)
    public long cwnd;
}
