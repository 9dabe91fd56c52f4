package org.sctpj.tests.netns;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.sctpj.llp.raw.Interfaces;
import org.sctpj.llp.raw.NetworkNamespace;
import org.sctpj.llp.raw.RawIpLowerLayer;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.addr.AddressClass;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.addr.LocalInterface;
import org.sctpj.timers.EndpointHandle;
import org.sctpj.timers.EndpointListener;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackThread;

/**
 * One SCTP host in a network namespace: its interfaces discovered with {@link Interfaces} inside
 * the namespace, a {@link RawIpLowerLayer} opened there, an {@link Endpoint} (optionally with an
 * address policy made from the discovered interfaces) driven by its own {@link StackThread}.
 * Events go to {@link #hook} (on the stack thread) if set, else to {@link #events}.
 */
final class NetnsHost implements AutoCloseable {
    final String name;
    final List<LocalInterface> interfaces;
    final StackThread thread;
    final EndpointHandle handle;
    final BlockingQueue<SctpEvent> events = new LinkedBlockingQueue<>();
    /** Sees every event first, on the stack thread; returns true if it consumed it. */
    volatile Function<SctpEvent, Boolean> hook = e -> false;

    private NetnsHost(
            String name, List<LocalInterface> interfaces, StackThread thread, Endpoint ep, RawIpLowerLayer llp) {
        this.name = name;
        this.interfaces = interfaces;
        this.thread = thread;
        this.handle = thread.register(ep, llp, new EndpointListener() {
            @Override
            public void onEvent(EndpointHandle h, SctpEvent event) {
                if (!hook.apply(event)) {
                    events.add(event);
                }
            }
        });
    }

    /**
     * Starts a host in the namespace {@code nsFile} on {@code port}.
     *
     * @param policy makes the address policy from the discovered interfaces; null for none (then
     *     the endpoint announces every discovered address but loopback and link-local)
     */
    static NetnsHost start(
            String name,
            Path nsFile,
            int port,
            SctpOptions o,
            boolean listen,
            Function<List<LocalInterface>, AddressPolicy> policy)
            throws IOException {
        return start(name, nsFile, port, o, listen, policy, false);
    }

    /** As above; {@code pathMtuProbing} sets DF on every packet (RawIpLowerLayer.Builder.pathMtuProbing). */
    static NetnsHost start(
            String name,
            Path nsFile,
            int port,
            SctpOptions o,
            boolean listen,
            Function<List<LocalInterface>, AddressPolicy> policy,
            boolean pathMtuProbing)
            throws IOException {
        List<LocalInterface> itfs = NetworkNamespace.call(nsFile, Interfaces::localInterfaces);
        List<InetAddress> locals = new ArrayList<>();
        for (LocalInterface i : itfs) {
            for (LocalInterface.Address a : i.addresses()) {
                AddressClass c = a.addressClass();
                if (c != AddressClass.LOOPBACK && c != AddressClass.LINK_LOCAL) {
                    locals.add(a.address());
                }
            }
        }
        if (locals.isEmpty()) {
            throw new IOException("no usable address discovered in " + nsFile + ": " + itfs);
        }
        RawIpLowerLayer llp = RawIpLowerLayer.builder()
                .networkNamespace(nsFile)
                .receiveBufferBytes(4 << 20)
                .pathMtuProbing(pathMtuProbing)
                .open();
        StackThread t = new StackThread(StackConfig.DEFAULT.withName("sctpj-" + name));
        Endpoint ep = new Endpoint(port, locals, o, new SecureRandom(), t.now());
        if (policy != null) {
            ep.setAddressPolicy(policy.apply(itfs));
        }
        ep.listen(listen);
        NetnsHost h = new NetnsHost(name, itfs, t, ep, llp);
        t.start();
        return h;
    }

    /** Runs {@code f} on the stack thread with the endpoint and waits for its result (10 s at most). */
    <T> T call(Function<Endpoint, T> f) {
        return call(handle, name, f);
    }

    /**
     * Runs {@code f} on the stack thread of {@code handle} with its endpoint and waits for its result
     * (10 s at most); what {@code f} throws is thrown here. {@code name} names the host in errors.
     */
    static <T> T call(EndpointHandle handle, String name, Function<Endpoint, T> f) {
        CompletableFuture<T> r = new CompletableFuture<>();
        handle.execute(() -> {
            try {
                r.complete(f.apply(handle.endpoint()));
            } catch (RuntimeException e) {
                r.completeExceptionally(e);
            }
        });
        try {
            return r.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException(name + ": the stack thread did not answer", e);
        }
    }

    /** Runs {@code c} on the stack thread without waiting. */
    void execute(Consumer<Endpoint> c) {
        handle.execute(() -> c.accept(handle.endpoint()));
    }

    /** Starts an association (on the stack thread). */
    AssociationId connect(List<InetAddress> peers, int port) {
        return call(ep -> ep.connect(peers, port, thread.now()));
    }

    /** The association's snapshot, taken on the stack thread. */
    AssociationInfo info(AssociationId id) {
        return call(ep -> ep.info(id).orElseThrow(() -> new AssertionError(name + ": no association " + id)));
    }

    /** The first association of the endpoint (for the listening side). */
    AssociationId firstAssociation() {
        return call(ep -> ep.associations().get(0));
    }

    /** Waits for an association change of type {@code type}; other events are dropped. */
    SctpEvent.AssociationChange await(SctpEvent.AssociationChangeType type, long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (true) {
            long left = end - System.nanoTime();
            SctpEvent e = left <= 0 ? null : events.poll(left, TimeUnit.NANOSECONDS);
            if (e == null) {
                throw new AssertionError(name + ": no " + type + " within " + millis + " ms");
            }
            if (e instanceof SctpEvent.AssociationChange c) {
                if (c.type() == type) {
                    return c;
                }
                if (c.type() == SctpEvent.AssociationChangeType.CANT_START
                        || c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_LOST) {
                    throw new AssertionError(name + ": " + c + " while waiting for " + type);
                }
            }
        }
    }

    /** Waits until {@code check} holds on the stack thread (polling), or fails after {@code millis}. */
    void awaitTrue(Function<Endpoint, Boolean> check, long millis, String what) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (!call(check)) {
            if (System.nanoTime() > end) {
                throw new AssertionError(name + ": " + what + " not reached within " + millis + " ms");
            }
            Thread.sleep(20);
        }
    }

    /** Closes abortively: thread, endpoint and sockets. */
    @Override
    public void close() {
        thread.close();
    }
}
