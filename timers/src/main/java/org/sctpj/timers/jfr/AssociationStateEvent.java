package org.sctpj.timers.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * JFR event: an association changed state (RFC 9260 section 4). Recorded by {@link JfrProbe} on the
 * stack thread at the end of the endpoint call that changed it.
 */
@Name("org.sctpj.AssociationState")
@Label("SCTP Association State")
@Category({"sctpj", "Association"})
@Description("An SCTP association changed state (RFC 9260 section 4)")
public final class AssociationStateEvent extends jdk.jfr.Event {
    /** The association's id within its endpoint. */
    @Label("Association")
    public int association;

    /** The endpoint's SCTP port. */
    @Label("Local Port")
    public int localPort;

    /** The state before (empty for a new association). */
    @Label("From")
    public String from;

    /** The state now, e.g. ESTABLISHED or CLOSED. */
    @Label("To")
    public String to;
}
