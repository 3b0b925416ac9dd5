package dev.canopy.gridconfig.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class GridModelTest {

    private static Subjob subjob(String label, int count, String site, List<HostSlots> hosts) {
        return new Subjob(label, count, hosts, "w-" + site, site, site + "-lan", site + "-cl", Fabric.IB,
                OptionalDouble.empty(), Map.of("K", label), Map.of());
    }

    private static GridModel grid(List<Subjob> subjobs, List<Link> links) {
        return new GridModel("g", 100, LevelAlgorithms.DEFAULTS, Thresholds.DEFAULTS, subjobs, links);
    }

    @Test
    void processesFillEachHostUpToItsSlotsThenWrapAround() {
        Subjob subjob = subjob("a", 7, "s", List.of(new HostSlots("h1", 2), new HostSlots("h2", 3)));

        assertThat(List.of(0, 1, 2, 3, 4, 5, 6)).map(subjob::hostOf)
                .containsExactly("h1", "h1", "h2", "h2", "h2", "h1", "h1");
    }

    @Test
    void processesAreNumberedAcrossSubjobsInFileOrderWithTheirCoordinatesAndEnvironment() {
        GridModel grid = grid(List.of(
                subjob("a", 2, "s1", List.of(new HostSlots("h1", 1), new HostSlots("h2", 1))),
                subjob("b", 1, "s2", List.of(new HostSlots("h3", 4)))), List.of());

        assertThat(grid.processes()).containsExactly(
                new ProcessPlacement("a", 0, 0, new Coordinates("w-s1", "s1", "s1-lan", "s1-cl", "h1"), Map.of("K", "a")),
                new ProcessPlacement("a", 1, 1, new Coordinates("w-s1", "s1", "s1-lan", "s1-cl", "h2"), Map.of("K", "a")),
                new ProcessPlacement("b", 0, 2, new Coordinates("w-s2", "s2", "s2-lan", "s2-cl", "h3"), Map.of("K", "b")));
        assertThat(grid.processCount()).isEqualTo(3);
        assertThat(grid.processes().get(0).coordinates().linkLevel(grid.processes().get(2).coordinates()))
                .isEqualTo(Level.HEAVY_WAN);
    }

    @Test
    void sitesGroupTheirSubjobsInOrderOfFirstUse() {
        GridModel grid = grid(List.of(
                subjob("a", 2, "s1", List.of(new HostSlots("h", 1))),
                subjob("b", 3, "s2", List.of(new HostSlots("h", 1))),
                subjob("c", 4, "s1", List.of(new HostSlots("h", 1)))), List.of());

        assertThat(grid.subjob("b").map(Subjob::site)).contains("s2");
        assertThat(grid.site("s2").map(Site::processCount)).contains(3);
        assertThat(grid.sites()).containsExactly(
                new Site("s1", "w-s1", OptionalDouble.empty(), List.of("a", "c"), 6),
                new Site("s2", "w-s2", OptionalDouble.empty(), List.of("b"), 3));
    }

    @Test
    void linkBetweenAppliesDirectionAndFallsBackToTheDefaults() {
        List<Subjob> subjobs = List.of(
                subjob("a", 1, "s1", List.of(new HostSlots("h", 1))),
                subjob("b", 1, "s2", List.of(new HostSlots("h", 1))),
                subjob("c", 1, "s3", List.of(new HostSlots("h", 1))));
        GridModel grid = grid(subjobs, List.of(
                new Link("s1", "s2", 40, 2, 0.01, OptionalDouble.of(100), LinkDirection.BOTH_WAYS),
                new Link("s1", "s3", 300, 0, 0, OptionalDouble.empty(), LinkDirection.ONE_WAY)));

        assertThat(grid.linkBetween("s2", "s1"))
                .isEqualTo(new LinkSpec("s2", "s1", 40, 2, 0.01, OptionalDouble.of(100), LinkOrigin.CONFIGURED));
        assertThat(grid.linkBetween("s1", "s3").rttMs()).isEqualTo(300);
        assertThat(grid.linkBetween("s3", "s1"))
                .isEqualTo(new LinkSpec("s3", "s1", 100, 0, 0, OptionalDouble.empty(), LinkOrigin.DEFAULT));
        assertThat(grid.linkBetween("s2", "s1").oneWayDelayMs()).isEqualTo(20);
    }

    @Test
    void linkBetweenUnknownOrEqualSitesIsABug() {
        GridModel grid = grid(List.of(subjob("a", 1, "s1", List.of(new HostSlots("h", 1)))), List.of());

        assertThatThrownBy(() -> grid.linkBetween("s1", "nowhere")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nowhere");
        assertThatThrownBy(() -> grid.linkBetween("s1", "s1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void constructorRejectsModelsTheRestOfCanopyCouldNotUse() {
        Subjob a = subjob("a", 1, "s1", List.of(new HostSlots("h", 1)));
        Link toNowhere = new Link("s1", "s9", 1, 0, 0, OptionalDouble.empty(), LinkDirection.BOTH_WAYS);

        assertThatThrownBy(() -> grid(List.of(a, a), List.of())).hasMessageContaining("two subjobs are labelled a");
        assertThatThrownBy(() -> grid(List.of(), List.of())).hasMessageContaining("no subjobs");
        assertThatThrownBy(() -> grid(List.of(a), List.of(toNowhere))).hasMessageContaining("names a site not in");
        assertThatThrownBy(() -> new Thresholds(1, 1, 2, 3)).hasMessageContaining("increase");
        assertThatThrownBy(() -> LevelAlgorithms.DEFAULTS.with(Level.HOST, Algorithm.HLOT)).hasMessageContaining("cannot run");
    }

    @Test
    void subjobRejectsWhatWouldNotReadBackTheSame() {
        List<HostSlots> host = List.of(new HostSlots("h", 1));
        assertThatThrownBy(() -> new Subjob("a", 1, host, "w", "s", "lan", "c", Fabric.NONE, OptionalDouble.empty(),
                Map.of("GLOBUS_LAN_ID", "other"), Map.of())).hasMessageContaining("disagrees with lan_id");
        assertThatThrownBy(() -> new Subjob("a", 1, host, "w", "s", "lan", "c", Fabric.NONE, OptionalDouble.empty(),
                Map.of("GLOBUS_DUROC_SUBJOB_INDEX", "x"), Map.of())).hasMessageContaining("whole number");
        assertThatThrownBy(() -> new Subjob("a", 1, host, "w", "s", "lan", "c", Fabric.NONE, OptionalDouble.empty(),
                Map.of(), Map.of("colour", List.of("blue")))).hasMessageContaining("gram holds");
        assertThatThrownBy(() -> new Subjob("a", 1, List.of(new HostSlots("h", 1), new HostSlots("h", 2)), "w", "s", "lan", "c",
                Fabric.NONE, OptionalDouble.empty(), Map.of(), Map.of())).hasMessageContaining("lists a host twice");
        Subjob indexed = new Subjob("a", 1, host, "w", "s", "lan", "c", Fabric.NONE, OptionalDouble.empty(),
                Map.of("GLOBUS_DUROC_SUBJOB_INDEX", "0"), Map.of());
        assertThatThrownBy(() -> grid(List.of(indexed, new Subjob("b", 1, host, "w", "s", "lan", "c", Fabric.NONE,
                OptionalDouble.empty(), Map.of("GLOBUS_DUROC_SUBJOB_INDEX", "00"), Map.of())), List.of()))
                .hasMessageContaining("two subjobs have GLOBUS_DUROC_SUBJOB_INDEX 0");
    }

    @Test
    void thresholdsClassifyRttsIntoTheFinestLevelTheyFit() {
        assertThat(List.of(0.01, 0.2, 1.0, 20.0, 31.0)).map(Thresholds.DEFAULTS::classify)
                .containsExactly(Level.HOST, Level.CLUSTER, Level.LAN, Level.LIGHT_WAN, Level.HEAVY_WAN);
    }
}
