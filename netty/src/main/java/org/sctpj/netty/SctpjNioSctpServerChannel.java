package org.sctpj.netty;

import com.sun.nio.sctp.SctpChannel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.nio.AbstractNioMessageChannel;
import io.netty.channel.sctp.DefaultSctpServerChannelConfig;
import io.netty.channel.sctp.SctpServerChannel;
import io.netty.channel.sctp.SctpServerChannelConfig;
import io.netty.channel.sctp.nio.NioSctpChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SelectionKey;
import java.util.LinkedHashSet;
import java.util.Set;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjServerChannel;

/**
 * A Netty SCTP server channel over sctpj: the one class this module adds to Netty. Netty's own
 * {@code NioSctpServerChannel} opens the JDK's server channel in its only constructor, which has
 * no implementation on most platforms; this class has the same shape (an {@link
 * AbstractNioMessageChannel} and an {@link SctpServerChannel}) over an {@link SctpjServerChannel},
 * and each association it accepts becomes Netty's own {@link NioSctpChannel}, so Netty's handlers
 * ({@code SctpMessage}, the SCTP codecs) work unchanged.
 *
 * <pre>{@code
 * SctpProvider sctp = SctpProvider.defaultProvider();
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory(sctp));
 * new ServerBootstrap().group(group)
 *         .channelFactory(() -> new SctpjNioSctpServerChannel(sctp))
 *         .childHandler(...)
 *         .bind(new InetSocketAddress(5000));
 * }</pre>
 *
 * Register it (and its children) only with an event loop whose selector comes from an {@link
 * SctpProvider}. Its methods run on that event loop, as Netty's channels' do.
 */
public class SctpjNioSctpServerChannel extends AbstractNioMessageChannel implements SctpServerChannel {

    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);

    private final SctpServerChannelConfig config;

    /** A server channel on {@code provider}'s threads and UDP ports. */
    public SctpjNioSctpServerChannel(SctpProvider provider) {
        this(provider.openServerChannel());
    }

    /** A server channel over {@code channel} (unbound, with its options set as wanted). */
    public SctpjNioSctpServerChannel(SctpjServerChannel channel) {
        super(null, channel, SelectionKey.OP_ACCEPT);
        config = new Config(this, channel);
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public Set<InetSocketAddress> allLocalAddresses() {
        Set<InetSocketAddress> out = new LinkedHashSet<>();
        try {
            for (SocketAddress a : javaChannel().getAllLocalAddresses()) {
                out.add((InetSocketAddress) a);
            }
        } catch (IOException e) {
            // closed: none
        }
        return out;
    }

    @Override
    public SctpServerChannelConfig config() {
        return config;
    }

    @Override
    public boolean isActive() {
        return isOpen() && !allLocalAddresses().isEmpty();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return null;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    protected SctpjServerChannel javaChannel() {
        return (SctpjServerChannel) super.javaChannel();
    }

    @Override
    protected SocketAddress localAddress0() {
        Set<InetSocketAddress> all = allLocalAddresses();
        return all.isEmpty() ? null : all.iterator().next();
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        javaChannel().bind(localAddress, config.getBacklog());
    }

    @Override
    protected void doClose() throws Exception {
        javaChannel().close();
    }

    /** Event loop: each association that is up becomes a Netty {@link NioSctpChannel}. */
    @Override
    protected int doReadMessages(java.util.List<Object> buf) throws Exception {
        SctpChannel ch = javaChannel().accept();
        if (ch == null) {
            return 0;
        }
        buf.add(new NioSctpChannel(this, ch));
        return 1;
    }

    /** Unsupported: sctpj has no ASCONF (RFC 5061); bind every address at once. */
    @Override
    public ChannelFuture bindAddress(InetAddress localAddress) {
        return bindAddress(localAddress, newPromise());
    }

    /** Unsupported: sctpj has no ASCONF (RFC 5061); the promise fails. */
    @Override
    public ChannelFuture bindAddress(InetAddress localAddress, ChannelPromise promise) {
        return promise.setFailure(new UnsupportedOperationException(
                "sctpj has no ASCONF: bind the server channel to all its addresses at once"));
    }

    /** Unsupported: addresses are fixed at bind time. */
    @Override
    public ChannelFuture unbindAddress(InetAddress localAddress) {
        return unbindAddress(localAddress, newPromise());
    }

    /** Unsupported: addresses are fixed at bind time; the promise fails. */
    @Override
    public ChannelFuture unbindAddress(InetAddress localAddress, ChannelPromise promise) {
        return promise.setFailure(
                new UnsupportedOperationException("sctpj has no ASCONF: addresses are fixed at bind time"));
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) {
        throw new UnsupportedOperationException("a server channel does not connect");
    }

    @Override
    protected void doFinishConnect() {
        throw new UnsupportedOperationException("a server channel does not connect");
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doDisconnect() {
        throw new UnsupportedOperationException("a server channel does not disconnect");
    }

    @Override
    protected boolean doWriteMessage(Object msg, ChannelOutboundBuffer in) {
        throw new UnsupportedOperationException("a server channel does not write");
    }

    @Override
    protected Object filterOutboundMessage(Object msg) {
        throw new UnsupportedOperationException("a server channel does not write");
    }

    /** Netty's server configuration; clearing auto-read also drops a pending read. */
    private final class Config extends DefaultSctpServerChannelConfig {
        Config(SctpjNioSctpServerChannel channel, SctpjServerChannel javaChannel) {
            super(channel, javaChannel);
        }

        @Override
        protected void autoReadCleared() {
            clearReadPending();
        }
    }
}
