package dev.canopy.collectives.internal.multicast;

import dev.canopy.collectives.internal.segmentation.PipelineSegmenter;
import dev.canopy.multicast.internal.model.LatencyModel;
import java.util.Locale;

/**
 * {@code auto} at the LAN and cluster levels: multicast or the pipelined point-to-point tree, per message
 * size, by the design note's latency model, in microseconds, for the largest leaf group ({@code n} members).
 *
 * <ul>
 *   <li>multicast: {@code T_sr + (f - 1) * T_root}: the first of {@code f} packets arrives after the
 *       single-root latency {@code T_sr = 2 T_cc + T_ud + T_mc}, and the root (and each co-root) handles
 *       one packet per {@code T_root = T_cc + T_ud + T_um ceil(log2(n/s)) + T_pack s}, with {@code s} the
 *       best sub-group size. (A co-root finishes at {@code min(T_rc, T_sr)}, never later than a leaf.)</li>
 *   <li>tree: {@code d L + (d + k - 1)(o + M/(kB))}: depth {@code d = ceil(log2 n)}, the one-way latency
 *       {@code L} between members of a group, and {@link PipelineSegmenter}'s pipelining of {@code k}
 *       segments with per-message overhead {@code o} and bandwidth {@code B}.</li>
 * </ul>
 *
 * Small messages take multicast (one flight instead of {@code d} hops); above a threshold the tree's
 * bandwidth beats the substrate's per-packet work (Java copies and ACKs every packet of its MTU), as the
 * design note's design 5 switches to the zero-copy tree for large messages.
 *
 * @param substrate          the substrate's parameters, with {@code T_mc} and {@code T_pp} as measured here
 * @param packetPayloadBytes message bytes per packet: the fabric's MTU less the substrate's header
 * @param pipeline           the point-to-point pipelining the collectives use
 * @param oneWayMicros       L: the one-way point-to-point latency inside a group
 * @param groupSize          n: members of the largest group
 */
public record BroadcastCostModel(LatencyModel substrate, int packetPayloadBytes, PipelineSegmenter pipeline,
                                 double oneWayMicros, int groupSize) {

    /**
     * The substrate on Vert.x event loops as {@code canopy bench multicast} measured it on a shared 2-core VM
     * (2026-11-25, 8 members, emulated-ud: about 28 us of root work per packet, 0.2 to 1 ms for a small
     * message): T_cc 2, T_ud 4, T_mc 50, T_pp 100, T_um 8, T_pack 3 us. {@code T_mc} and {@code T_pp} are
     * replaced by what the running deployment measures ({@link #measured}).
     */
    public static final LatencyModel JVM_SUBSTRATE = new LatencyModel(2, 4, 50, 100, 8, 3);

    /** The substrate's header per packet ({@code PacketCodec}): a fabric MTU carries that much less of the message. */
    public static final int SUBSTRATE_HEADER_BYTES = 40;

    public BroadcastCostModel {
        if (packetPayloadBytes < 1 || groupSize < 1 || !(oneWayMicros >= 0) || Double.isInfinite(oneWayMicros)) {
            throw new IllegalArgumentException("broadcast cost model needs a packet payload >= 1 byte, a group of"
                    + " >= 1 member and a finite one-way latency >= 0; got " + packetPayloadBytes + ", " + groupSize
                    + ", " + oneWayMicros);
        }
    }

    /**
     * The model with this deployment's measurements: {@code multicastFlightMicros} (T_mc, half the fabric's
     * round trip) and {@code oneWayMicros} (the plan's latency inside a group, also T_pp) in {@link #JVM_SUBSTRATE}.
     */
    public static BroadcastCostModel measured(double multicastFlightMicros, int fabricMtu, PipelineSegmenter pipeline,
            double oneWayMicros, int groupSize) {
        LatencyModel base = JVM_SUBSTRATE;
        LatencyModel here = new LatencyModel(base.copyMicros(), base.postMicros(), multicastFlightMicros, oneWayMicros,
                base.reliableSendMicros(), base.ackMicros());
        return new BroadcastCostModel(here, fabricMtu - SUBSTRATE_HEADER_BYTES, pipeline, oneWayMicros, groupSize);
    }

    public Carrier choose(int bytes) {
        return multicastMicros(bytes) <= treeMicros(bytes) ? Carrier.MULTICAST : Carrier.TREE;
    }

    public double multicastMicros(int bytes) {
        long packets = Math.max(1, (bytes + (long) packetPayloadBytes - 1) / packetPayloadBytes);
        int s = substrate.bestSubGroupSize(groupSize);
        return substrate.singleRootMicros() + (packets - 1) * substrate.rootMicrosPerMessage(groupSize, s);
    }

    public double treeMicros(int bytes) {
        int depth = depth(groupSize);
        return depth * oneWayMicros + pipeline.predictedSeconds(bytes, Math.max(1, depth)) * 1e6;
    }

    /** The smallest power of two from 1 byte to 1 GiB that goes by the tree, or -1 if none does. */
    public long firstTreeSize() {
        for (long bytes = 1; bytes <= 1L << 30; bytes <<= 1) {
            if (choose((int) Math.min(Integer.MAX_VALUE, bytes)) == Carrier.TREE) {
                return bytes;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        long threshold = firstTreeSize();
        return String.format(Locale.ROOT, "auto: multicast %s (groups of %d, T_mc %.0f us, one-way %.0f us)",
                threshold < 0 ? "at every size" : "below about " + threshold + " bytes, the pipelined tree above",
                groupSize, substrate.multicastMicros(), oneWayMicros);
    }

    private static int depth(int members) {
        return members <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(members - 1);
    }
}
