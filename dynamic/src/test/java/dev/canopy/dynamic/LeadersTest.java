package dev.canopy.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where collectives cross, from a round-trip table: the nearest pair, the nearest to a root, or the rank 0s. */
class LeadersTest {

    private static int port = 41000;

    /** A group with members at the given sites, in rank order. */
    private static GroupRecord group(Side side, String... sites) {
        List<Member> members = new ArrayList<>();
        for (int r = 0; r < sites.length; r++) {
            port += 2;
            members.add(new Member(NodeId.of(side.memberId(r)), new Coordinates("w", sites[r], sites[r], sites[r], sites[r] + r),
                    new NodeAddress("127.0.0.1", port, port + 1)));
        }
        return new GroupRecord(side.name(), 1, members, false);
    }

    // accepting group: alpha alpha beta (representatives 0 and 2); connecting: gamma delta delta (0 and 1)
    private final InterTable accepting = new InterTable(group(Side.ACCEPT, "alpha", "alpha", "beta"),
            group(Side.CONNECT, "gamma", "delta", "delta"), Side.ACCEPT, 0);
    /** Rows: alpha, beta; columns: gamma, delta. beta-delta is nearest; from alpha, gamma is nearer. */
    private final double[][] rtt = {{30, 80}, {60, 4}};

    @Test
    void representativesAreTheLowestRankOfEachSite() {
        assertThat(Leaders.representatives(accepting.group(Side.ACCEPT))).containsExactly(0, 2);
        assertThat(Leaders.representatives(accepting.group(Side.CONNECT))).containsExactly(0, 1);
    }

    @Test
    void topologyCrossesBetweenTheNearestPairAndFromARootToItsNearestSite() {
        Leaders leaders = new Leaders(accepting, InterPhase.TOPOLOGY, rtt);
        assertThat(leaders.leader(Side.ACCEPT)).isEqualTo(2);      // beta
        assertThat(leaders.leader(Side.CONNECT)).isEqualTo(1);     // delta
        assertThat(leaders.nearest(Side.CONNECT, Side.ACCEPT, 1)).isEqualTo(0);   // alpha's rank 1 -> gamma
        assertThat(leaders.nearest(Side.CONNECT, Side.ACCEPT, 2)).isEqualTo(1);   // beta -> delta
        assertThat(leaders.nearest(Side.ACCEPT, Side.CONNECT, 2)).isEqualTo(2);   // delta's rank 2 -> beta
        assertThat(leaders.nearest(Side.ACCEPT, Side.CONNECT, 0)).isEqualTo(0);   // gamma -> alpha
    }

    @Test
    void aPairOnOneSiteIsNearerThanAnyAcrossTheWanWhateverItsSample() {
        // accepting: alpha beta; connecting: beta gamma. beta-beta measured 9 ms (a loaded moment), alpha-beta 2 ms.
        InterTable shared = new InterTable(group(Side.ACCEPT, "alpha", "beta"), group(Side.CONNECT, "beta", "gamma"),
                Side.ACCEPT, 0);
        Leaders leaders = new Leaders(shared, InterPhase.TOPOLOGY, new double[][] {{2, 30}, {9, 60}});
        assertThat(leaders.leader(Side.ACCEPT)).isEqualTo(1);                    // beta
        assertThat(leaders.leader(Side.CONNECT)).isEqualTo(0);                   // beta
        assertThat(leaders.nearest(Side.CONNECT, Side.ACCEPT, 1)).isEqualTo(0);  // beta -> beta, not gamma
        assertThat(leaders.nearest(Side.CONNECT, Side.ACCEPT, 0)).isEqualTo(0);  // alpha -> beta by its 2 ms
        assertThat(leaders.nearest(Side.ACCEPT, Side.CONNECT, 0)).isEqualTo(1);  // beta -> beta, not alpha's 2 ms
        assertThat(leaders.nearest(Side.ACCEPT, Side.CONNECT, 1)).isEqualTo(0);  // gamma -> alpha (30 < 60)
    }

    @Test
    void flatCrossesBetweenRankZeros() {
        Leaders leaders = new Leaders(accepting, InterPhase.FLAT, new double[0][0]);
        assertThat(leaders.leader(Side.ACCEPT)).isZero();
        assertThat(leaders.leader(Side.CONNECT)).isZero();
        assertThat(leaders.nearest(Side.CONNECT, Side.ACCEPT, 2)).isZero();
    }
}
