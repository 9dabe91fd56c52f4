package org.sctpj.timers.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** JFR event: DATA chunks were marked for fast retransmission (RFC 9260 section 7.2.4). */
@Name("org.sctpj.FastRetransmit")
@Label("SCTP Fast Retransmit")
@Category({"sctpj", "Association"})
@Description("DATA chunks were marked for fast retransmission after gap reports (RFC 9260 section 7.2.4)")
public final class FastRetransmitEvent extends jdk.jfr.Event {
    /** The association's id within its endpoint. */
    @Label("Association")
    public int association;

    /** Chunks marked since the last event of the association. */
    @Label("Chunks")
    public long chunks;
}
