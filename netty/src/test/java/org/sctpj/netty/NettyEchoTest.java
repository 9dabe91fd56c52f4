package org.sctpj.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.sctp.SctpChannel;
import io.netty.channel.sctp.SctpMessage;
import io.netty.channel.sctp.nio.NioSctpChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjServerChannel;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.llp.raw.RawIpLowerLayer;
import org.sctpj.llp.raw.RawSocketPermissionException;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * Netty's SCTP transport, unchanged, over sctpj on loopback, with UDP encapsulation and over raw
 * IP: an echo server ({@link SctpjNioSctpServerChannel}, children are Netty's {@link
 * NioSctpChannel}) and a client (Netty's {@link NioSctpChannel} over an sctpj channel) on event
 * loops built with sctpj's selector provider; messages on several streams come back with their
 * stream and PPID.
 *
 * <p>The raw IP run needs CAP_NET_RAW (root) and is skipped with the reason without it (CI runs as
 * root: there it runs). Both sides' raw sockets are on loopback in the host's namespace, each
 * delivering only packets to its own address; a packet for the other side's port is dropped by
 * the endpoint. Run it under {@code flock /tmp/sctpj-netlock} beside other raw IP tests.
 */
@Timeout(60)
class NettyEchoTest {

    static final SctpOptions OPTS =
            SctpOptions.LAN.toBuilder().delayedAckTime(Duration.ofMillis(5)).build();

    /** Netty's handler: sends every message back on its stream with its PPID. */
    static final class Echo extends SimpleChannelInboundHandler<SctpMessage> {
        Echo() {
            super(false);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, SctpMessage msg) {
            ctx.writeAndFlush(msg);
        }
    }

    @Test
    void anEchoServerAndClientExchangeMessagesOnSeveralStreamsWithTheirPpids() throws Exception {
        try (StackRuntime serverRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("srv"));
                StackRuntime clientRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("cli"))) {
            echo(
                    SctpProvider.of(CallbackRuntime.of(serverRt), OPTS),
                    SctpProvider.of(CallbackRuntime.of(clientRt), OPTS),
                    true);
        }
    }

    /** Raw IP (RFC 9260 over IPv4, protocol 132) on loopback; skipped without CAP_NET_RAW. */
    @Test
    void theSameEchoOverRawIp() throws Exception {
        try (RawIpLowerLayer probe = RawIpLowerLayer.builder().ipv6(false).open()) {
            // raw sockets open here
        } catch (RawSocketPermissionException e) {
            Assumptions.assumeTrue(false, "raw IP needs CAP_NET_RAW (root): " + e.getMessage());
        }
        LowerLayerFactory raw = (port, addresses) -> RawIpLowerLayer.builder()
                .ipv6(false)
                .localAddresses(addresses)
                .receiveBufferFor(OPTS)
                .open();
        try (StackRuntime serverRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("srv-raw"));
                StackRuntime clientRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("cli-raw"))) {
            echo(
                    SctpProvider.of(CallbackRuntime.of(serverRt), OPTS, raw),
                    SctpProvider.of(CallbackRuntime.of(clientRt), OPTS, raw),
                    false);
        }
    }

    /** 200 messages on 5 streams echoed by the server, over UDP encapsulation or the providers' layers. */
    private static void echo(SctpProvider serverSctp, SctpProvider clientSctp, boolean udp) throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        EventLoopGroup serverGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory(serverSctp));
        EventLoopGroup clientGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory(clientSctp));
        try {
            SctpjServerChannel listening = serverSctp.openServerChannel();
            if (udp) {
                listening.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
            }
            Channel server = new ServerBootstrap()
                    .group(serverGroup)
                    .channelFactory(() -> new SctpjNioSctpServerChannel(listening))
                    .childHandler(new ChannelInitializer<SctpChannel>() {
                        @Override
                        protected void initChannel(SctpChannel ch) {
                            ch.pipeline().addLast(new Echo());
                        }
                    })
                    .bind(new InetSocketAddress(lo, 0))
                    .sync()
                    .channel();
            InetSocketAddress serverAddr = (InetSocketAddress) server.localAddress();
            assertTrue(serverAddr.getPort() > 0);

            BlockingQueue<SctpMessage> echoes = new LinkedBlockingQueue<>();
            SctpProvider toServer = udp ? clientSctp.withUdpPorts(0, listening.udpPort()) : clientSctp;
            Channel client = new Bootstrap()
                    .group(clientGroup)
                    .channelFactory(() -> new NioSctpChannel(toServer.openSctpChannel()))
                    .handler(new ChannelInitializer<SctpChannel>() {
                        @Override
                        protected void initChannel(SctpChannel ch) {
                            ch.pipeline().addLast(new SimpleChannelInboundHandler<SctpMessage>() {
                                @Override
                                protected void channelRead0(ChannelHandlerContext ctx, SctpMessage msg) {
                                    echoes.add(msg.retain());
                                }
                            });
                        }
                    })
                    .connect(serverAddr)
                    .sync()
                    .channel();
            assertTrue(client.isActive());
            assertEquals(serverAddr.getPort(), ((InetSocketAddress) client.remoteAddress()).getPort());

            int n = 200;
            Map<String, int[]> sent = new HashMap<>();
            for (int i = 0; i < n; i++) {
                String text = "message " + i;
                int stream = i % 5;
                int ppid = 1000 + i;
                sent.put(text, new int[] {stream, ppid});
                client.write(new SctpMessage(ppid, stream, Unpooled.copiedBuffer(text, StandardCharsets.UTF_8)));
            }
            client.flush();
            Map<Integer, Integer> lastPerStream = new HashMap<>();
            for (int i = 0; i < n; i++) {
                SctpMessage m = echoes.poll(20, TimeUnit.SECONDS);
                assertNotNull(m, "echo " + i + " of " + n);
                String text = m.content().toString(StandardCharsets.UTF_8);
                int[] want = sent.remove(text);
                assertNotNull(want, "an echo of something sent once: " + text);
                assertEquals(want[0], m.streamIdentifier(), text);
                assertEquals(want[1], m.protocolIdentifier(), text);
                assertTrue(m.isComplete());
                // ordered delivery within a stream
                int k = Integer.parseInt(text.substring("message ".length()));
                Integer prev = lastPerStream.put(m.streamIdentifier(), k);
                assertTrue(prev == null || prev < k, "stream " + m.streamIdentifier() + ": " + prev + " then " + k);
                m.release();
            }
            assertTrue(sent.isEmpty());
            client.close().sync();
            server.close().sync();
        } finally {
            clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
