package org.sctpj.stack.wire;

import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * The outcome of decoding: a value or a {@link ParseError}. Decoders return this instead of
 * throwing, so that no byte sequence from the network can raise an exception out of the codec.
 *
 * @param <T> the decoded element type
 */
public sealed interface Parsed<T> permits Parsed.Ok, Parsed.Failed {

    /** A successful decode. */
    record Ok<T>(T value) implements Parsed<T> {}

    /** A failed decode with its reason. */
    record Failed<T>(ParseError error) implements Parsed<T> {}

    /** Wraps a decoded value. */
    static <T> Parsed<T> ok(T value) {
        return new Ok<>(value);
    }

    /** A failure of the given kind. */
    static <T> Parsed<T> fail(ParseErrorKind kind, int chunkType, int offset, String detail) {
        return new Failed<>(new ParseError(kind, chunkType, offset, detail));
    }

    /** True for {@link Ok}. */
    default boolean isOk() {
        return this instanceof Ok;
    }

    /**
     * The decoded value.
     *
     * @throws NoSuchElementException if this is a failure: check {@link #isOk()} first
     */
    default T value() {
        if (this instanceof Ok<T> ok) {
            return ok.value();
        }
        throw new NoSuchElementException("decode failed (check isOk() before value()): " + error());
    }

    /**
     * The error.
     *
     * @throws NoSuchElementException if this is a success: check {@link #isOk()} first
     */
    default ParseError error() {
        if (this instanceof Failed<T> failed) {
            return failed.error();
        }
        throw new NoSuchElementException("decode succeeded; there is no error (check isOk() first)");
    }

    /** The same failure, retyped; only for failures. */
    @SuppressWarnings("unchecked")
    default <U> Parsed<U> castFailure() {
        if (this instanceof Failed<T>) {
            return (Parsed<U>) this;
        }
        throw new IllegalStateException("castFailure() on a success");
    }

    /** Maps the value of a success; a failure passes through. */
    default <U> Parsed<U> map(Function<? super T, ? extends U> f) {
        if (this instanceof Ok<T> ok) {
            return new Ok<>(f.apply(ok.value()));
        }
        return castFailure();
    }
}
