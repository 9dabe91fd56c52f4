package org.sctpj.timers;

/**
 * Receives errors the {@link StackThread} caught so that it could go on: a callback or command
 * that threw, a lower layer that failed to send or receive. The default ({@link #LOG}) logs to the
 * JDK's {@link System.Logger} {@code org.sctpj}; plug in your own. Runs on the stack thread; if it
 * throws, the error is dropped.
 */
@FunctionalInterface
public interface ErrorReporter {

    /**
     * An error was caught.
     *
     * @param where what was running (e.g. "callback", "command", "lower layer send")
     * @param error what was thrown
     */
    void report(String where, Throwable error);

    /**
     * Logs the error with its stack trace at {@link System.Logger.Level#ERROR} on the logger {@code
     * org.sctpj} (the JDK's logging facade: java.util.logging prints it on standard error unless
     * configured or replaced).
     */
    ErrorReporter LOG = (where, error) -> System.getLogger("org.sctpj")
            .log(
                    System.Logger.Level.ERROR,
                    "sctpj stack thread " + Thread.currentThread().getName() + ": " + where + " threw " + error,
                    error);

    /** Kept for code written against it: the same as {@link #LOG}. */
    ErrorReporter STDERR = LOG;
}
