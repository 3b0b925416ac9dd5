package dev.canopy.gridconfig.internal.print;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.model.GridModel;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The printer writes any model as RSL that reads back as the same model. */
class RoundTripTest {

    @Provide
    Arbitrary<GridModel> models() {
        return GridModels.models();
    }

    @Property(tries = 1000)
    void parsingThePrintedModelGivesTheModelBack(@ForAll("models") GridModel model) {
        String printed = GridConfigs.print(model);
        ParseResult result = GridConfigs.parse(printed, "printed.rsl");

        assertThat(result.diagnostics()).as(printed).isEmpty();
        assertThat(result.orElseThrow()).isEqualTo(model);
    }

    @Property(tries = 200)
    void printingIsStable(@ForAll("models") GridModel model) {
        String printed = GridConfigs.print(model);

        assertThat(GridConfigs.print(GridConfigs.parse(printed, "printed.rsl").orElseThrow())).isEqualTo(printed);
    }

    @Test
    void bundledExamplesSurviveTheRoundTrip() {
        for (String example : GridConfigs.BUNDLED_EXAMPLES) {
            GridModel model = GridConfigs.loadBundled(example).orElseThrow();

            assertThat(GridConfigs.parse(GridConfigs.print(model), example).orElseThrow()).isEqualTo(model);
        }
    }

    @Test
    void printedFileIsCanonicalRsl() {
        GridModel model = GridConfigs.parse("+ ( &(type = subjob) (label = 'say \"hi\" now') (count = 2) (uplink_mbps = 1e2) )", "p.rsl")
                .orElseThrow();

        assertThat(GridConfigs.print(model)).isEqualTo("""
                +
                ( &(type = grid)
                   (name = "p")
                   (default_rtt_ms = 100)
                   (levels = (heavy_wan hlot) (light_wan flat) (lan multicast) (cluster fabric_multicast) (host local))
                   (thresholds_ms = (host 0.05) (cluster 0.3) (lan 2) (light_wan 30))
                   (multicast_range = 239.192.0.0/14)
                   (multicast_ports = 45000-45999)
                )
                ( &(type = subjob)
                   (label = "say ""hi"" now")
                   (count = 2)
                   (hosts = "say ""hi"" now:2")
                   (wan_group = "say ""hi"" now")
                   (site = "say ""hi"" now")
                   (lan_id = "say ""hi"" now")
                   (cluster = "say ""hi"" now")
                   (fabric = none)
                   (uplink_mbps = 100)
                )
                """);
    }
}
