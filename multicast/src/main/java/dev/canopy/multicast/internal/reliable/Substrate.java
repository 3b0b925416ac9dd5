package dev.canopy.multicast.internal.reliable;

import dev.canopy.core.comm.RankFailedException;
import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.link.ReliableLink;
import dev.canopy.multicast.internal.loop.OwnerLoop;
import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the streams of one member share: its rank, the fabric, the reliable link, the owner loop, the
 * options and counters, and where failures go. Owner loop only.
 */
final class Substrate {

    final int rank;
    final int size;
    final CommunicatorId communicator;
    final MulticastGroup group;
    final Fabric fabric;
    final ReliableLink link;
    final OwnerLoop loop;
    final MulticastOptions options;
    final int subGroupSize;
    final int fragmentCapacity;
    final long ackDelayNanos;
    final long retransmitNanos;
    final MulticastStats.Counters counters = new MulticastStats.Counters();
    private final Consumer<Throwable> failureSink;
    private final List<FeedbackSender> feedbackDue = new ArrayList<>();

    Substrate(CommunicatorId communicator, MulticastGroup group, Fabric fabric, ReliableLink link, OwnerLoop loop,
              MulticastOptions options, Consumer<Throwable> failureSink) {
        this.rank = link.rank();
        this.size = link.size();
        this.communicator = communicator;
        this.group = group;
        this.fabric = fabric;
        this.link = link;
        this.loop = loop;
        this.options = options;
        this.subGroupSize = options.subGroupSizeFor(size);
        this.fragmentCapacity = fabric.mtu() - PacketCodec.HEADER_BYTES;
        if (fragmentCapacity < 1) {
            throw new IllegalArgumentException("fabric " + fabric.kind() + " has an MTU of " + fabric.mtu()
                    + " bytes: the multicast substrate needs more than its " + PacketCodec.HEADER_BYTES
                    + "-byte header");
        }
        this.ackDelayNanos = options.ackDelay().toNanos();
        this.retransmitNanos = options.retransmitTimeout().toNanos();
        this.failureSink = failureSink;
    }

    /** Sends a copy of {@code packet} over the reliable link; a failed send fails the member. */
    void sendReliably(int destination, ByteBuffer packet) {
        byte[] bytes = new byte[packet.remaining()];
        packet.get(packet.position(), bytes);
        sendReliably(destination, bytes);
    }

    void sendReliably(int destination, byte[] bytes) {
        link.send(destination, Buffer.buffer(bytes)).onFailure(this::linkFailed);
    }

    /** {@code sender} owes its parent a report at the end of the batch being handled. */
    void feedbackDue(FeedbackSender sender) {
        feedbackDue.add(sender);
    }

    /** The end of a batch (packets that arrived together, or one link message): send the reports owed. */
    void flushFeedback() {
        for (int i = 0; i < feedbackDue.size(); i++) {
            feedbackDue.get(i).flush();
        }
        feedbackDue.clear();
    }

    /** The stream or member cannot go on: fail every operation with {@code failure}. */
    void fail(Throwable failure) {
        failureSink.accept(failure);
    }

    private void linkFailed(Throwable failure) {
        loop.execute(() -> fail(failure instanceof RankFailedException ? failure
                : new IllegalStateException("rank " + rank + ": reliable link send failed: " + failure, failure)));
    }
}
