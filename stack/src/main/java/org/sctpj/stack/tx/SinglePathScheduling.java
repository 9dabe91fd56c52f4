package org.sctpj.stack.tx;

import java.net.InetAddress;
import java.util.List;
import org.sctpj.stack.path.Path;

/**
 * One destination at a time (RFC 9260 section 6.4): the association sends all DATA to its single
 * data path, retransmissions included (section 6.4.1: wherever it sends next); nothing here
 * restricts a packet. Stateless.
 */
final class SinglePathScheduling implements PathScheduling {

    @Override
    public boolean sendsNewDataTo(Path p) {
        return false;
    }

    @Override
    public boolean stripes(List<Path> paths) {
        return false;
    }

    @Override
    public InetAddress transmit(List<Path> paths, PacketAttempt attempt, long now) {
        throw new IllegalStateException("single-path scheduling does not stripe: send to the data path");
    }

    @Override
    public void beginFill(List<Path> paths) {}

    @Override
    public boolean retransmitsTo(Path last, Path p) {
        return true;
    }

    @Override
    public boolean withinShare(Path p, List<Path> paths, long peerWindow) {
        return true;
    }
}
