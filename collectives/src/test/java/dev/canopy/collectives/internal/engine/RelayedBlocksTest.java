package dev.canopy.collectives.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.data.MalformedMessageException;
import io.vertx.core.buffer.Buffer;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The aggregates of {@link SiteExchange} without a network, every coordinator's {@link RelayedBlocks}
 * driven round by round by its {@link RelaySchedule}: every member gets every off-site block, on
 * direct and relayed routes; and a coordinator's work grows with the blocks it carries, not with
 * their square. The cost is counted as the bytes the JVM allocates on this thread (every copied byte
 * and every map entry is an allocation), not timed.
 */
class RelayedBlocksTest {

    /** Block source->destination: int source, int destination. */
    private static Buffer block(int source, int destination) {
        return Buffer.buffer(8).appendInt(source).appendInt(destination);
    }

    private static final Sites SITES = Sites.of(List.of("a", "b", "a", "c", "b", "a", "b", "d"));

    @Test
    void everyMemberGetsTheBlocksOfEveryOtherSiteOnDirectRoutes() {
        assertEveryMemberGetsEveryOffSiteBlock(SiteRoutes.direct(SITES.count()));
    }

    /** Sites a and b are far apart, c relays between them and d hangs off c alone: routes of up to three hops. */
    @Test
    void everyMemberGetsTheBlocksOfEveryOtherSiteOnRelayedRoutes() {
        double far = 100;
        SiteRoutes routes = SiteRoutes.fastest(SiteRoutesTest.matrix(new double[][] {
                {0, far, 5, far},
                {far, 0, 5, far},
                {5, 5, 0, 5},
                {far, far, 5, 0}}), 1.0);
        assertThat(routes.path(0, 1)).containsExactly(0, 2, 1);
        assertThat(routes.path(0, 3)).containsExactly(0, 2, 3);
        assertThat(routes.rounds()).isEqualTo(2);
        assertEveryMemberGetsEveryOffSiteBlock(routes);
    }

    @Test
    void aReceivedBlockOffItsRouteIsMalformedNamingTheRoute() {
        SiteRoutes direct = SiteRoutes.direct(SITES.count());
        RelayedBlocks atSiteC = new RelayedBlocks(SITES, direct, 2);
        SortedMap<Integer, RankBlocks> misrouted = new TreeMap<>();
        misrouted.put(0, RankBlocks.builder().put(1, block(0, 1)).build());
        Buffer message = RankBlocks.encodeNested(misrouted);
        assertThatThrownBy(() -> atSiteC.sortReceived(1, 0, message)).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("site 2 got the block of rank 0 for rank 1 from site 0 in round 1")
                .hasMessageContaining("[0, 1]");
    }

    /** Runs the relay of every coordinator, all messages of a round delivered before the next round starts. */
    private static void assertEveryMemberGetsEveryOffSiteBlock(SiteRoutes routes) {
        int n = 8;
        List<RelayedBlocks> coordinators = new ArrayList<>();
        for (int site = 0; site < SITES.count(); site++) {
            SortedMap<Integer, RankBlocks> bySource = new TreeMap<>();
            for (int source : SITES.members(site)) {
                Buffer stepOne = SiteAggregates.offSite(blocksOf(source, n), SITES, source).encode();
                bySource.put(source, RankBlocks.sliced(stepOne));
            }
            RelayedBlocks blocks = new RelayedBlocks(SITES, routes, site);
            blocks.sortOwn(bySource);
            coordinators.add(blocks);
        }
        for (int round = 1; round <= routes.rounds(); round++) {
            List<Runnable> arrivals = new ArrayList<>();
            for (int site = 0; site < SITES.count(); site++) {
                for (RelaySchedule.Send send : RelaySchedule.of(routes, site).sendsIn(round)) {
                    Buffer message = coordinators.get(site).onward(round, send.toSite());
                    int from = site;
                    int r = round;
                    arrivals.add(() -> coordinators.get(send.toSite()).sortReceived(r, from, message));
                }
            }
            arrivals.forEach(Runnable::run);
        }
        for (int site = 0; site < SITES.count(); site++) {
            int[] members = SITES.members(site);
            List<RankBlocks> delivered = coordinators.get(site).perMember();
            for (int i = 0; i < members.length; i++) {
                RankBlocks stepThree = RankBlocks.sliced(delivered.get(i).encode());
                List<Integer> offSiteSources = new ArrayList<>();
                for (int source = 0; source < n; source++) {
                    if (!SITES.sameSite(source, members[i])) {
                        offSiteSources.add(source);
                        assertThat(stepThree.block(source)).isEqualTo(block(source, members[i]));
                    }
                }
                assertThat(stepThree.ranks()).isEqualTo(offSiteSources);
            }
        }
    }

    /**
     * 1024 ranks in 8 sites of 128: the coordinator of site 0 carries 2 x 128 x 896 blocks. Copying a
     * block map for every block added (the cost this replaced) allocates per block in proportion to
     * the ranks per site, 4 times as much per block at 1024 ranks as at 256 and over 8 KiB per block.
     */
    @Test
    void aCoordinatorAllocatesAboutTheSamePerBlockFor256And1024Ranks() {
        coordinatorOfFirstSite(2, 4); // loads and links the classes involved before counting
        Measured small = coordinatorOfFirstSite(8, 32);
        Measured large = coordinatorOfFirstSite(8, 128);
        assertThat(large.blocks()).isEqualTo(2L * 128 * 896);
        assertThat(large.bytesPerBlock()).as("bytes allocated per block at 1024 ranks, against %s at 256",
                small.bytesPerBlock()).isLessThan(1024).isLessThan(2 * small.bytesPerBlock());
    }

    private record Measured(long blocks, long allocatedBytes) {
        double bytesPerBlock() {
            return (double) allocatedBytes / blocks;
        }
    }

    /**
     * Everything the coordinator of site 0 does with the aggregates of one all-to-all, from its members'
     * step-1 messages and the other coordinators' step-2 messages (made beforehand, not counted) to its
     * members' step-3 messages; checks one member's delivery.
     */
    private static Measured coordinatorOfFirstSite(int siteCount, int perSite) {
        int n = siteCount * perSite;
        List<String> siteNames = new ArrayList<>();
        for (int rank = 0; rank < n; rank++) {
            siteNames.add("site" + rank / perSite);
        }
        Sites sites = Sites.of(siteNames);
        int[] members = sites.members(0);
        List<Buffer> mine = blocksOf(0, n);
        List<Buffer> fromMembers = new ArrayList<>();
        for (int i = 1; i < members.length; i++) {
            fromMembers.add(SiteAggregates.offSite(blocksOf(members[i], n), sites, members[i]).encode());
        }
        List<Buffer> fromCoordinators = new ArrayList<>();
        for (int site = 1; site < siteCount; site++) {
            fromCoordinators.add(RankBlocks.encodeNested(toFirstSite(sites.members(site), members)));
        }
        List<Buffer> deliveries = new ArrayList<>();
        SiteRoutes direct = SiteRoutes.direct(siteCount);
        long allocated = allocatedBytesWhile(() -> {
            SortedMap<Integer, RankBlocks> bySource = new TreeMap<>();
            bySource.put(0, SiteAggregates.offSite(mine, sites, 0));
            for (int i = 1; i < members.length; i++) {
                bySource.put(members[i], RankBlocks.sliced(fromMembers.get(i - 1)));
            }
            RelayedBlocks relayed = new RelayedBlocks(sites, direct, 0);
            relayed.sortOwn(bySource);
            for (int site = 1; site < siteCount; site++) {
                deliveries.add(relayed.onward(1, site));
            }
            for (int site = 1; site < siteCount; site++) {
                relayed.sortReceived(1, site, fromCoordinators.get(site - 1));
            }
            List<RankBlocks> forMember = relayed.perMember();
            for (int i = 1; i < members.length; i++) {
                deliveries.add(forMember.get(i).encode());
            }
            deliveries.add(forMember.get(0).copied().encode());
        });
        int last = members[members.length - 1];
        RankBlocks toLast = RankBlocks.sliced(deliveries.get(deliveries.size() - 2));
        assertThat(toLast.count()).isEqualTo(n - perSite);
        assertThat(toLast.block(n - 1)).isEqualTo(block(n - 1, last));
        return new Measured(2L * perSite * (n - perSite), allocated);
    }

    /** The blocks of {@code sources} for {@code destinations}, keyed by source, as another site's coordinator holds them. */
    private static SortedMap<Integer, RankBlocks> toFirstSite(int[] sources, int[] destinations) {
        SortedMap<Integer, RankBlocks> bySource = new TreeMap<>();
        for (int source : sources) {
            RankBlocks.Builder byDestination = RankBlocks.builder();
            for (int destination : destinations) {
                byDestination.put(destination, block(source, destination));
            }
            bySource.put(source, byDestination.build());
        }
        return bySource;
    }

    private static List<Buffer> blocksOf(int source, int n) {
        List<Buffer> blocks = new ArrayList<>(n);
        for (int destination = 0; destination < n; destination++) {
            blocks.add(block(source, destination));
        }
        return blocks;
    }

    private static long allocatedBytesWhile(Runnable work) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemoryEnabled()).as("this JVM counts allocated bytes per thread").isTrue();
        long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }
}
