package org.sctpj.stack.cc;

import java.util.List;

/**
 * Makes the {@link CongestionController} of each association, given with {@code
 * SctpOptions.Builder.congestionController(factory)}; since options may be given per association
 * ({@code Endpoint.connect(peers, port, options, now)}), two associations of one endpoint can use
 * different controllers.
 *
 * <p>{@link #create} is called once per association, on the stack's owner thread, when the
 * association is created (connect, or a valid COOKIE ECHO), before any path is added: {@code paths}
 * is then empty. It is a live, unmodifiable view of the association's paths, for coupled
 * controllers that read every path (RFC 6356); paths are only ever appended to it.
 *
 * <p>The two controllers of the stack are {@link #RFC9260} and {@link #LINKED_INCREASES}.
 */
@FunctionalInterface
public interface CongestionControllerFactory {

    /** RFC 9260 section 7.2 on each destination independently ({@link Rfc9260CongestionController}). */
    CongestionControllerFactory RFC9260 = new BuiltinFactory("RFC9260", paths -> new Rfc9260CongestionController());

    /**
     * The coupled "linked increases" controller of RFC 6356 for CMT ({@link
     * LinkedIncreasesCongestionController}).
     */
    CongestionControllerFactory LINKED_INCREASES =
            new BuiltinFactory("LINKED_INCREASES", LinkedIncreasesCongestionController::new);

    /**
     * The controller of a new association.
     *
     * @param paths the association's paths, a live unmodifiable view (empty now)
     * @return a controller, not null
     */
    CongestionController create(List<? extends PathCongestionState> paths);
}
