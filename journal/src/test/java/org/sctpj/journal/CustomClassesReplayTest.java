package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.addr.AddressSelector;
import org.sctpj.stack.addr.CollisionInfo;
import org.sctpj.stack.addr.DefaultAddressSelector;
import org.sctpj.stack.addr.LocalInterface;
import org.sctpj.stack.addr.PathPair;
import org.sctpj.stack.addr.PeerInterface;
import org.sctpj.stack.cc.CongestionController;
import org.sctpj.stack.cc.CongestionControllerFactory;
import org.sctpj.stack.cc.PathCongestionState;
import picocli.CommandLine;

/** Replay of journals recorded with an application's congestion controller or address selector. */
public class CustomClassesReplayTest {

    @TempDir
    Path tmp;

    /** An application's congestion controller factory: a named class with a public no-arg constructor. */
    public static final class MyController implements CongestionControllerFactory {
        /** Rebuilt by the replay. */
        public MyController() {}

        @Override
        public CongestionController create(List<? extends PathCongestionState> paths) {
            return CongestionControllerFactory.RFC9260.create(paths);
        }
    }

    /** An application's address selector (the default rules), with a public no-arg constructor. */
    public static final class MySelector implements AddressSelector {
        /** Rebuilt by the replay. */
        public MySelector() {}

        @Override
        public List<InetAddress> announce(List<LocalInterface> host, Optional<InetAddress> peerHint) {
            return DefaultAddressSelector.INSTANCE.announce(host, peerHint);
        }

        @Override
        public List<InetAddress> rankPeer(
                List<LocalInterface> host, List<InetAddress> peerAddrs, CollisionInfo collisions) {
            return DefaultAddressSelector.INSTANCE.rankPeer(host, peerAddrs, collisions);
        }

        @Override
        public List<PathPair> pairPaths(List<LocalInterface> host, List<PeerInterface> peer, CollisionInfo collisions) {
            return DefaultAddressSelector.INSTANCE.pairPaths(host, peer, collisions);
        }
    }

    private SimulatedRun run(CongestionControllerFactory cc, boolean policy) throws IOException {
        SimulatedRun r = new SimulatedRun(tmp.resolve("a"), tmp.resolve("z"));
        r.optionsA = SctpOptions.DEFAULTS.toBuilder().congestionController(cc).build();
        if (policy) {
            List<LocalInterface> host = List.of(
                    new LocalInterface("sim0", List.of(new LocalInterface.Address(SimulatedRun.ip("10.0.0.1"), 24))));
            r.setupA = ep -> ep.setAddressPolicy(new AddressPolicy(host, new MySelector(), CollisionInfo.NONE));
        }
        r.run(5, 0.02, 100);
        assertEquals(100, r.delivered);
        return r;
    }

    @Test
    void aCustomControllerAndSelectorWithNoArgConstructorsAreRebuilt() throws IOException {
        SimulatedRun r = run(new MyController(), true);
        ReplayResult a = Replay.run(r.dirA);
        assertTrue(a.identical(), a.report());
        assertTrue(a.outputsChecked() > 100, a.report());
    }

    @Test
    void aLambdaControllerIsRefusedInOneLineSayingWhatToPassAndReplaysWithASubstitute() throws IOException {
        CongestionControllerFactory lambda = paths -> CongestionControllerFactory.RFC9260.create(paths);
        SimulatedRun r = run(lambda, false);
        ReplayResult refused = Replay.run(r.dirA);
        assertFalse(refused.identical());
        String what = refused.difference().orElseThrow().what();
        assertFalse(what.contains("\n"), what);
        assertTrue(what.contains("--instance " + lambda.getClass().getName() + "=CLASS"), what);

        ReplayResult substituted = Replay.run(r.dirA, Map.of(lambda.getClass().getName(), MyController::new));
        assertTrue(substituted.identical(), substituted.report());

        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(new ReplayCommand());
        cl.setOut(new PrintWriter(out));
        int code = cl.execute(
                r.dirA.toString(), "--instance", lambda.getClass().getName() + "=" + MyController.class.getName());
        assertEquals(0, code, out.toString());
        assertTrue(out.toString().startsWith("replay identical"), out.toString());
    }
}
