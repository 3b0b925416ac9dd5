package dev.canopy.gridconfig;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.model.Algorithm;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.LinkOrigin;
import dev.canopy.gridconfig.model.LinkSpec;
import dev.canopy.gridconfig.model.Site;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The level files users start from: they check clean and the bundled copies equal examples/grids/. */
class ExamplesTest {

    /** examples/grids/ seen from the grid-config module, where Maven runs its tests. */
    private static final Path EXAMPLES = Path.of("..", "examples", "grids");

    static Stream<String> bundled() {
        return GridConfigs.BUNDLED_EXAMPLES.stream();
    }

    @ParameterizedTest
    @MethodSource("bundled")
    void everyExampleChecksClean(String example) {
        ParseResult result = GridConfigs.load(EXAMPLES.resolve(example));

        assertThat(result.diagnostics()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("bundled")
    void bundledCopyIsIdenticalToTheFileInExamples(String example) throws IOException {
        assertThat(GridConfigs.bundledText(example)).isEqualTo(Files.readString(EXAMPLES.resolve(example)));
    }

    @Test
    void examplesDirectoryHoldsExactlyTheBundledFiles() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(GridConfigs.BUNDLED_EXAMPLES);
        }
    }

    @Test
    void defaultGridIsTheMpichGxTestbedWithThirtyTwoProcessesOnEightSitesOfFourOrganisations() {
        GridModel grid = GridConfigs.defaultGrid();

        assertThat(grid.processCount()).isEqualTo(32);
        assertThat(grid.sites()).hasSize(8).allSatisfy(site -> assertThat(site.processCount()).isEqualTo(4));
        assertThat(grid.sites().stream().map(Site::wanGroup).distinct())
                .containsExactly("yonsei", "ajou", "kut", "kisti");
        assertThat(grid.algorithmAt(Level.HEAVY_WAN)).isEqualTo(Algorithm.HLOT);
    }

    @Test
    void defaultGridGivesEveryDirectedSitePairAConfiguredLinkFromAFewMsToAFewHundred() {
        GridModel grid = GridConfigs.defaultGrid();
        List<LinkSpec> links = directedLinks(grid);

        assertThat(links).hasSize(8 * 7).allSatisfy(link -> assertThat(link.origin()).isEqualTo(LinkOrigin.CONFIGURED));
        assertThat(links.stream().mapToDouble(LinkSpec::rttMs).min().orElseThrow()).isLessThan(5);
        assertThat(links.stream().mapToDouble(LinkSpec::rttMs).max().orElseThrow()).isGreaterThan(200);
    }

    @Test
    void defaultGridHasASlowDirectLinkThatARelayBeatsSoHlotBeatsFlat() {
        GridModel grid = GridConfigs.defaultGrid();
        double direct = grid.linkBetween("yonsei-a", "kisti-a").rttMs();
        double relayed = grid.linkBetween("yonsei-a", "kut-a").rttMs() + grid.linkBetween("kut-a", "kisti-a").rttMs();

        assertThat(relayed).isLessThan(direct / 4);
        assertThat(grid.linkBetween("kisti-a", "yonsei-a").rttMs()).isNotEqualTo(direct);
    }

    private static List<LinkSpec> directedLinks(GridModel grid) {
        List<String> sites = grid.sites().stream().map(Site::name).toList();
        return sites.stream()
                .flatMap(from -> sites.stream().filter(to -> !to.equals(from)).map(to -> grid.linkBetween(from, to)))
                .toList();
    }
}
