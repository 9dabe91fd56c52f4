package org.sctpj.timers.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** JFR event: the status of a path changed (RFC 9260 section 8.2, RFC 7829 for POTENTIALLY_FAILED). */
@Name("org.sctpj.PathStatus")
@Label("SCTP Path Status")
@Category({"sctpj", "Path"})
@Description("The status of a path of an SCTP association changed (RFC 9260 section 8.2, RFC 7829)")
public final class PathStatusEvent extends jdk.jfr.Event {
    /** The association's id within its endpoint. */
    @Label("Association")
    public int association;

    /** The peer address of the path. */
    @Label("Peer")
    public String peer;

    /** The status before (empty for a new path). */
    @Label("From")
    public String from;

    /** UNCONFIRMED, ACTIVE, POTENTIALLY_FAILED or INACTIVE. */
    @Label("To")
    public String to;
}
