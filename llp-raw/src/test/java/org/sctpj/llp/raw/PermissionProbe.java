package org.sctpj.llp.raw;

/**
 * Run in a child JVM without CAP_NET_RAW by {@link RawSocketPermissionTest}: tries to open the raw
 * lower layer and prints the exception's class and message.
 */
public final class PermissionProbe {
    private PermissionProbe() {}

    /** Prints {@code OPENED}, or the exception class name, a newline and its message. */
    public static void main(String[] args) {
        try (RawIpLowerLayer l = RawIpLowerLayer.open()) {
            System.out.println("OPENED");
        } catch (Exception e) {
            System.out.println(e.getClass().getName());
            System.out.println(e.getMessage());
        }
    }
}
