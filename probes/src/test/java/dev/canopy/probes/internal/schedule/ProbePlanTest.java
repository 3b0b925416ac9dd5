package dev.canopy.probes.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.node.Member;
import dev.canopy.probes.internal.Link;
import dev.canopy.probes.internal.TestGrids;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ProbePlanTest {

    private static final ScheduleSettings SETTINGS = ScheduleSettings.DEFAULTS;

    @Test
    void meshesSmallSitesAndJoinsSitesOnlyThroughRepresentativesAndCrossChecks() {
        List<Member> members = TestGrids.members(3, 4);
        ProbePlan plan = ProbePlan.of(members, SETTINGS, 0);

        assertThat(plan.representatives().values()).extracting(m -> m.id().value())
                .containsExactly("s00-h00", "s01-h00", "s02-h00");
        long local = plan.links().stream().filter(l -> l.role() == LinkRole.LOCAL_MESH).count();
        assertThat(local).isEqualTo(3 * 6); // a full mesh of 4 has 6 links
        assertThat(plan.links().stream().filter(l -> l.role() == LinkRole.REPRESENTATIVES)).hasSize(3);
        for (ProbeLink link : plan.links()) {
            boolean crossesSites = !ProbePlan.siteKey(link.owner()).equals(ProbePlan.siteKey(link.peer()));
            assertThat(crossesSites).isEqualTo(link.role() != LinkRole.LOCAL_MESH);
            if (link.role() == LinkRole.CROSS_CHECK) {
                assertThat(plan.representatives().values()).doesNotContain(link.owner(), link.peer());
            }
        }
        assertThat(plan.links().stream().filter(l -> l.role() == LinkRole.CROSS_CHECK)).hasSizeBetween(1, 3);
    }

    @Test
    void boundsTheMeshOfALargeSiteToARingOfNeighbours() {
        ProbePlan plan = ProbePlan.of(TestGrids.members(1, 40), SETTINGS, 0);
        for (Member member : TestGrids.members(1, 40)) {
            assertThat(plan.degree(member.id())).isEqualTo(SETTINGS.localMeshDegree());
        }
    }

    @Test
    void choosesTheNextRepresentativeWhenOneLeaves() {
        List<Member> members = new ArrayList<>(TestGrids.members(2, 3));
        Member leaving = members.remove(0);
        ProbePlan plan = ProbePlan.of(members, SETTINGS, 0);
        assertThat(plan.representativeOf(ProbePlan.siteKey(leaving)).orElseThrow().id().value()).isEqualTo("s00-h01");
        assertThat(plan.links()).noneMatch(l -> l.link().touches(leaving.id()));
    }

    @Property(tries = 60)
    void everyNodeComputesTheSamePlanAndEachLinkOnce(@ForAll @IntRange(min = 1, max = 9) int sites,
                                                     @ForAll @IntRange(min = 1, max = 20) int perSite,
                                                     @ForAll @IntRange(min = 0, max = 50) int round) {
        List<Member> members = TestGrids.members(sites, perSite);
        List<Member> shuffled = new ArrayList<>(members);
        Collections.shuffle(shuffled, new Random(round));
        ProbePlan plan = ProbePlan.of(members, SETTINGS, round);

        assertThat(ProbePlan.of(shuffled, SETTINGS, round).links()).isEqualTo(plan.links());
        assertThat(plan.links().stream().map(ProbeLink::link).distinct().count()).isEqualTo(plan.links().size());
        int bound = SETTINGS.localMeshDegree() + (sites - 1) + 2 * SETTINGS.crossChecksPerSite() * sites;
        for (Member member : members) {
            assertThat(plan.degree(member.id())).isLessThanOrEqualTo(bound);
        }
        for (ProbeLink link : plan.links()) {
            assertThat(ProbeLink.between(link.peer(), link.owner(), link.role())).as("owner of %s", link.link())
                    .isEqualTo(link);
        }
    }

    @Test
    void stretchesPeriodsOfBusyNodesToKeepWithinTheBudget() {
        ScheduleSettings tight = SETTINGS.withMaxProbesPerNodePerSecond(2);
        List<Member> members = TestGrids.members(12, 2);
        ProbePlan plan = ProbePlan.of(members, tight, 0);
        for (Member member : members) {
            assertThat(plan.plannedLoad(member.id()).probesPerSecond()).isLessThanOrEqualTo(2.0 + 1e-9);
        }
        ProbeLink repLink = plan.links().stream().filter(l -> l.role() == LinkRole.REPRESENTATIVES).findFirst()
                .orElseThrow();
        assertThat(plan.latencyPeriod(repLink)).isGreaterThan(tight.latencyPeriod());
        Link any = repLink.link();
        assertThat(plan.linksOf(any.a())).contains(repLink);
    }
}
