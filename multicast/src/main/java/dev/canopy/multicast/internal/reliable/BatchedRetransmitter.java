package dev.canopy.multicast.internal.reliable;

/**
 * Retransmission over the reliable link in datagrams, not packets: a leaf's missing run of held packets goes as
 * few messages as the MTU allows (a lone packet as it is, consecutive ones as a BATCH, the same datagrams the
 * multicast carries, which the leaf already reads from the link). Why: with bcasts bundled, one late ACK expires a
 * whole burst at once, and a message per packet per leaf (60 x 7 for one 64 KB datagram of 1 KB bcasts over udp)
 * loaded the root and the leaves exactly when they were already behind. Owner loop only.
 */
final class BatchedRetransmitter implements LeafWindow.Retransmitter {

    private final Substrate substrate;
    private final LeafWindow window;
    private final Bundler bundler;

    /** Packets of {@code root}'s stream held in {@code window}. */
    BatchedRetransmitter(Substrate substrate, LeafWindow window, int root) {
        this.substrate = substrate;
        this.window = window;
        this.bundler = new Bundler(substrate.fabric.mtu(), substrate.communicator, root);
    }

    @Override
    public void send(int leaf, long from, long to) {
        for (long first = from; first < to; ) {
            int count = bundler.fitting(window, first, to);
            substrate.sendReliably(leaf, bundler.datagram(window, first, count));
            first += count;
        }
    }
}
