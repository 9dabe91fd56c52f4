package org.sctpj.sim.monitor;

/**
 * A packet an endpoint emitted broke a rule of RFC 9260 (or of this project, where said): thrown by
 * the {@link ConformanceMonitor} at the first such packet, so the run fails where the fault is. The
 * message names the sender, its association state, the rule with its RFC section, and the packet's
 * decoded chunk list.
 *
 * <p>It is an {@link AssertionError} so that a simulated test fails (not errors) on it, and so that
 * code catching {@code RuntimeException} around the simulator does not hide it.
 */
public final class ProtocolViolation extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final String rule;
    private final String sender;
    private final String state;
    private final String packet;

    /**
     * A violation.
     *
     * @param rule the rule broken, with its RFC section
     * @param sender which node sent the packet (side and address)
     * @param state the sender's association state when it built the packet
     * @param packet the packet: common header and decoded chunk list
     * @param nowNanos the virtual time it was sent
     */
    public ProtocolViolation(String rule, String sender, String state, String packet, long nowNanos) {
        super("protocol violation at " + nowNanos + " ns by " + sender + " in state " + state + ": " + rule
                + "\n  packet: " + packet);
        this.rule = rule;
        this.sender = sender;
        this.state = state;
        this.packet = packet;
    }

    /** The rule broken, with its RFC section. */
    public String rule() {
        return rule;
    }

    /** The sending node. */
    public String sender() {
        return sender;
    }

    /** The sender's association state when it built the packet. */
    public String state() {
        return state;
    }

    /** The packet, decoded. */
    public String packet() {
        return packet;
    }
}
