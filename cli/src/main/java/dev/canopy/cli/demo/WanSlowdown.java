package dev.canopy.cli.demo;

import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.internal.emulation.LinkProfile;
import dev.canopy.core.internal.emulation.WanEmulator;
import dev.canopy.gridconfig.Coordinates;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The demo's degraded WAN link: the first heavy-WAN link of rank 0's broadcast tree (the first WAN link if the
 * grid has one wide-area group), slowed down in the emulation ({@link WanEmulator#changeLink}) to
 * {@value #SLOWDOWN_FACTOR} times its round trip and at least {@value #SLOWDOWN_MIN_MS} ms more. Between
 * wide-area groups a tree algorithm can route around it, so a re-plan has something to gain.
 */
final class WanSlowdown {

    private static final double SLOWDOWN_FACTOR = 5;
    private static final double SLOWDOWN_MIN_MS = 200;

    private WanSlowdown() {
    }

    /**
     * Slows down the first wide-area link of {@code tree} (rank 0's broadcast tree on the plan in use) and says which,
     * e.g. {@code alpha~beta 40.0 -> 240.0 ms RTT}; empty when the tree crosses no WAN.
     */
    static Optional<String> degradeFirstLink(WanEmulator wan, RootedTree tree, Communicator world) {
        int[] children = tree.children(0);
        Coordinates root = world.member(0).coordinates();
        Optional<Integer> child = Arrays.stream(children).boxed()
                .filter(c -> !world.member(c).coordinates().wanGroup().equals(root.wanGroup())).findFirst()
                .or(() -> Arrays.stream(children).boxed()
                        .filter(c -> !world.member(c).coordinates().site().equals(root.site())).findFirst());
        if (child.isEmpty()) {
            return Optional.empty();
        }
        String from = root.site();
        String to = world.member(child.get()).coordinates().site();
        LinkProfile before = wan.config().link(from, to);
        double slower = Math.max(before.rttMs() * SLOWDOWN_FACTOR, before.rttMs() + SLOWDOWN_MIN_MS);
        wan.changeLink(from, to, new LinkProfile(slower, before.jitterMs(), before.loss(), before.bandwidthMbps()));
        return Optional.of(String.format(Locale.ROOT, "%s~%s %.1f -> %.1f ms RTT", from, to, before.rttMs(), slower));
    }
}
