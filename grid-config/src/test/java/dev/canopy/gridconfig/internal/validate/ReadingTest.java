package dev.canopy.gridconfig.internal.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.Level;
import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.gridconfig.model.Fabric;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.HostSlots;
import dev.canopy.gridconfig.model.LevelAlgorithms;
import dev.canopy.gridconfig.model.LinkDirection;
import dev.canopy.gridconfig.model.Subjob;
import dev.canopy.gridconfig.model.Thresholds;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** What valid files mean: defaults, spelling rules, variables, MPICH-G2 files. */
class ReadingTest {

    @Test
    void minimalSubjobGetsEveryDefault() {
        GridModel grid = Check.model("+ ( &(type = subjob) (count = 3) )");

        assertThat(grid.name()).isEqualTo("t");
        assertThat(grid.defaultRttMs()).isEqualTo(100);
        assertThat(grid.levels()).isEqualTo(LevelAlgorithms.DEFAULTS);
        assertThat(grid.thresholds()).isEqualTo(new Thresholds(0.05, 0.3, 2, 30));
        assertThat(grid.subjobs()).containsExactly(new Subjob("subjob-0", 3, List.of(new HostSlots("subjob-0", 3)),
                "subjob-0", "subjob-0", "subjob-0", "subjob-0", Fabric.NONE, OptionalDouble.empty(), Map.of(), Map.of()));
    }

    @Test
    void defaultsChainFromSiteToWanGroupAndFromLanIdToCluster() {
        Subjob subjob = Check.model(Check.withSubjob("(label = \"y\") (site = \"yonsei\") (lan_id = \"ylan\")")).subjobs().get(0);

        assertThat(subjob.wanGroup()).isEqualTo("yonsei");
        assertThat(subjob.cluster()).isEqualTo("ylan");
        assertThat(subjob.hosts()).containsExactly(new HostSlots("y", 1));
    }

    @Test
    void attributeNamesIgnoreCaseAndUnderscores() {
        Subjob subjob = Check.model(Check.withSubjob("(LABEL = x) (Lan_Id = l1) (WANGROUP = w) (Up_Link_MBPS = 10)")).subjobs().get(0);

        assertThat(subjob.lanId()).isEqualTo("l1");
        assertThat(subjob.wanGroup()).isEqualTo("w");
        assertThat(subjob.uplinkMbps()).hasValue(10);
    }

    @Test
    void keywordsIgnoreCaseAndUnderscores() {
        GridModel grid = Check.model("+ ( &(type = GRID) (levels = (HeavyWan MST) (cluster FabricMulticast)) )"
                + " ( &(Type = Sub_Job) (fabric = UDP_Multicast) )");

        assertThat(grid.algorithmAt(Level.HEAVY_WAN)).isEqualTo(Algorithm.MST);
        assertThat(grid.subjobs().get(0).fabric()).isEqualTo(Fabric.UDP_MULTICAST);
    }

    @Test
    void gridSectionSetsNameRttLevelsAndThresholdsKeepingDefaultsForTheRest() {
        GridModel grid = Check.model("""
                +
                ( &(type = grid) (name = "korea") (default_rtt_ms = 80.5)
                   (levels = (light_wan binomial) (lan auto))
                   (thresholds_ms = (lan 1.5) (light_wan 12)) )
                ( &(type = subjob) (label = a) )
                """);

        assertThat(grid.name()).isEqualTo("korea");
        assertThat(grid.defaultRttMs()).isEqualTo(80.5);
        assertThat(grid.levels()).isEqualTo(LevelAlgorithms.DEFAULTS.with(Level.LIGHT_WAN, Algorithm.BINOMIAL)
                .with(Level.LAN, Algorithm.AUTO));
        assertThat(grid.thresholds()).isEqualTo(new Thresholds(0.05, 0.3, 1.5, 12));
    }

    @Test
    void hostsSpreadCountBySlots() {
        Subjob subjob = Check.model(Check.withSubjob("(label = a) (count = 5) (hosts = \"h1:2\" h2 'h3:4')")).subjobs().get(0);

        assertThat(subjob.hosts()).containsExactly(new HostSlots("h1", 2), new HostSlots("h2", 1), new HostSlots("h3", 4));
        assertThat(subjob.count()).isEqualTo(5);
    }

    @Test
    void countDefaultsToTheSlotsOfTheHosts() {
        assertThat(Check.model(Check.withSubjob("(label = a) (hosts = \"h1:2\" \"h2:3\")")).processCount()).isEqualTo(5);
    }

    @Test
    void gridVariablesApplyToTheWholeFileEvenBeforeTheGridSection() {
        GridModel grid = Check.model("""
                +
                ( &(type = subjob) (label = $(ORG)#"-a") (executable = $(BIN)#/bench) )
                ( &(type = grid) (rsl_substitution = (ORG yonsei) (BIN $(ORG)#"/bin")) )
                """);

        assertThat(grid.subjobs().get(0).label()).isEqualTo("yonsei-a");
        assertThat(grid.subjobs().get(0).gram()).containsEntry("executable", List.of("yonsei/bin/bench"));
    }

    @Test
    void sectionVariablesApplyOnlyAfterTheirDefinitionInTheirSection() {
        List<String> errors = Check.errors("""
                +
                ( &(type = subjob) (label = $(X)) (rsl_substitution = (X a)) (site = $(X)) )
                ( &(type = subjob) (label = $(X)) )
                """);

        assertThat(errors).containsExactly(
                "t.rsl:2:29: error: undefined variable \"X\"; define it with (rsl_substitution = (X value)) in the grid section or earlier in this section",
                "t.rsl:3:29: error: undefined variable \"X\"; define it with (rsl_substitution = (X value)) in the grid section or earlier in this section");
    }

    @Test
    void quotesOfBothStylesWithDoubledQuotesAreValues() {
        Subjob subjob = Check.model(Check.withSubjob("(label = 'it''s') (site = \"say \"\"hi\"\"\")")).subjobs().get(0);

        assertThat(subjob.label()).isEqualTo("it's");
        assertThat(subjob.site()).isEqualTo("say \"hi\"");
    }

    @Test
    void linkDefaultsToTheGridRttNoJitterNoLossUnlimitedBothWays() {
        GridModel grid = Check.model("""
                +
                ( &(type = grid) (default_rtt_ms = 70) )
                ( &(type = subjob) (label = a) ) ( &(type = subjob) (label = b) )
                ( &(type = link) (between = a b) (bandwidth_mbps = 100) )
                """);

        assertThat(grid.links()).singleElement().satisfies(link -> {
            assertThat(link.rttMs()).isEqualTo(70);
            assertThat(link.jitterMs()).isZero();
            assertThat(link.loss()).isZero();
            assertThat(link.bandwidthMbps()).hasValue(100);
            assertThat(link.direction()).isEqualTo(LinkDirection.BOTH_WAYS);
        });
    }

    @Test
    void uplinkOfASiteIsSharedByItsSubjobs() {
        GridModel grid = Check.model("""
                +
                ( &(type = subjob) (label = a) (site = s) (uplink_mbps = 100) )
                ( &(type = subjob) (label = b) (site = s) )
                """);

        assertThat(grid.subjobs()).allSatisfy(s -> assertThat(s.uplinkMbps()).hasValue(100));
        assertThat(grid.site("s").orElseThrow().uplinkMbps()).hasValue(100);
    }

    @Test
    void nicOfEachHostOfASubjob() {
        GridModel grid = Check.model("""
                +
                ( &(type = subjob) (label = a) (site = s) (hosts = h1 h2) (nic_mbps = 1000) )
                ( &(type = subjob) (label = b) (site = s) (hosts = h3) )
                """);

        assertThat(grid.nicMbps(new Coordinates("s", "s", "s", "s", "h2"))).hasValue(1000);
        assertThat(grid.nicMbps(new Coordinates("s", "s", "s", "s", "h3"))).isEmpty();
        assertThat(Check.model(GridConfigs.print(grid)).subjobs().get(0).nicMbps()).hasValue(1000);
    }

    @Test
    void mpichG2SubjobTakesItsSiteFromTheContactAndItsLanFromTheEnvironment() {
        GridModel grid = Check.model("""
                +
                ( &(resourceManagerContact="grid.kut.example:2119/jobmanager-pbs") (count=4) (label="kut")
                   (environment=(GLOBUS_LAN_ID "kut-lan") (GLOBUS_DUROC_SUBJOB_INDEX 1) (LD_LIBRARY_PATH "/g/lib"))
                   (executable="/home/u/app") (arguments="-n" "2") (jobtype=mpi) (maxWallTime=30) )
                ( &(resourceManagerContact="m1.example") (count=2) (environment=(GLOBUS_DUROC_SUBJOB_INDEX 0)) )
                """);

        Subjob kut = grid.subjobs().get(0);
        assertThat(kut.site()).isEqualTo("grid.kut.example");
        assertThat(kut.hosts()).containsExactly(new HostSlots("grid.kut.example", 4));
        assertThat(kut.lanId()).isEqualTo("kut-lan");
        assertThat(kut.environment()).containsOnlyKeys("GLOBUS_LAN_ID", "GLOBUS_DUROC_SUBJOB_INDEX", "LD_LIBRARY_PATH");
        assertThat(kut.gram()).containsExactly(
                Map.entry("resourceManagerContact", List.of("grid.kut.example:2119/jobmanager-pbs")),
                Map.entry("executable", List.of("/home/u/app")),
                Map.entry("arguments", List.of("-n", "2")),
                Map.entry("jobtype", List.of("mpi")),
                Map.entry("maxwalltime", List.of("30")));
        assertThat(grid.subjobs().get(1).label()).as("default label from GLOBUS_DUROC_SUBJOB_INDEX").isEqualTo("subjob-0");
    }

    @Test
    void exampleOfTheContractReads() {
        GridModel grid = Check.model("""
                (* two regions, three sites; the KISTI link is slow from Yonsei *)
                +
                ( &(type = grid) (name = "korea")
                   (levels = (heavy_wan hlot) (light_wan flat) (lan multicast)) )
                ( &(type = subjob) (label = "yonsei") (count = 8)
                   (hosts = "y1:4" "y2:4") (wan_group = "seoul") (site = "yonsei") (fabric = ib) )
                ( &(resourceManagerContact = "grid.kut.example/jobmanager-pbs") (count = 4)
                   (label = "kut") (environment = (GLOBUS_LAN_ID "kut-lan") (GLOBUS_DUROC_SUBJOB_INDEX 1)) )
                ( &(type = link) (between = "yonsei" "grid.kut.example") (rtt_ms = 12.5) )
                """);

        assertThat(grid.processCount()).isEqualTo(12);
        assertThat(grid.linkBetween("grid.kut.example", "yonsei").rttMs()).isEqualTo(12.5);
    }
}
