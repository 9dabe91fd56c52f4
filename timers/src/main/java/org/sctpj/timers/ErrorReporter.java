package org.sctpj.timers;

/**
 * Receives errors the {@link StackThread} caught so that it could go on: a callback or command
 * that threw, a lower layer that failed to send or receive. The default prints to {@code
 * System.err}; plug in your logger. Runs on the stack thread; if it throws, the error is dropped.
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

    /** Prints one line and the stack trace to {@code System.err}. */
    ErrorReporter STDERR = (where, error) -> {
        System.err.println("sctpj stack thread " + Thread.currentThread().getName() + ": " + where + " threw " + error);
        error.printStackTrace();
    };
}
