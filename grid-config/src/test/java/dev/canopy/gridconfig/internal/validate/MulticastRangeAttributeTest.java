package dev.canopy.gridconfig.internal.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.MulticastRange;
import org.junit.jupiter.api.Test;

/** {@code multicast_range} and {@code multicast_ports} in the grid section. */
class MulticastRangeAttributeTest {

    @Test
    void withoutTheAttributesTheDefaultRangeApplies() {
        assertThat(Check.model(Check.withSubjob("(count = 1)")).multicast()).isEqualTo(MulticastRange.DEFAULT);
    }

    @Test
    void theGridSectionSetsTheRangeAndThePorts() {
        GridModel grid = Check.model(Check.withSubjob("(count = 1)",
                "( &(type = grid) (multicast_range = \"239.200.16.0/20\") (MulticastPorts = 46000-46099) )"));

        assertThat(grid.multicast()).isEqualTo(MulticastRange.parse("239.200.16.0/20", "46000-46099"));
    }

    @Test
    void oneOfTheTwoKeepsTheOthersDefault() {
        GridModel grid = Check.model(Check.withSubjob("(count = 1)", "( &(type = grid) (multicast_ports = 47000) )"));

        assertThat(grid.multicast().cidr()).isEqualTo("239.192.0.0/14");
        assertThat(grid.multicast().ports()).isEqualTo("47000");
    }

    @Test
    void aBadRangeIsReportedAtItsValue() {
        assertThat(Check.errors(Check.withSubjob("(count = 1)", "( &(type = grid) (multicast_range = 224.1.0.0/16) )")))
                .containsExactly("t.rsl:3:37: error: multicast range 224.1.0.0/16 is not inside 239.0.0.0/8, the"
                        + " administratively scoped block (RFC 2365); use e.g. 239.192.0.0/14");
        assertThat(Check.errors(Check.withSubjob("(count = 1)",
                "( &(type = grid) (multicast_range = 239.1.0.0/16) (multicast_ports = 100-200) )")))
                .singleElement().asString().startsWith("t.rsl:3:70: error: multicast ports 100-200");
        assertThat(Check.errors(Check.withSubjob("(count = 1)", "( &(type = grid) (multicast_range = 239.1.0.0/16 239.2.0.0/16) )")))
                .singleElement().asString().contains("takes one value, found 2");
    }
}
