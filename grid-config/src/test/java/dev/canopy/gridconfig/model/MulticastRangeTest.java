package dev.canopy.gridconfig.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reading IPv4 blocks and port ranges, and numbering their slots. */
class MulticastRangeTest {

    @Test
    void theDefaultIsTheOrganisationLocalScopeWithAThousandPorts() {
        MulticastRange range = MulticastRange.DEFAULT;

        assertThat(range.cidr()).isEqualTo("239.192.0.0/14");
        assertThat(range.ports()).isEqualTo("45000-45999");
        assertThat(range.addressCount()).isEqualTo(1 << 18);
        assertThat(range.capacity()).isEqualTo((1L << 18) * 1000);
    }

    @Test
    void slotsUseEveryAddressAtTheFirstPortBeforeTheNextPort() {
        MulticastRange range = MulticastRange.parse("239.1.2.0/30", "50000-50002");
        Set<String> seen = new HashSet<>();

        for (long index = 0; index < range.capacity(); index++) {
            int address = range.addressOf(index);
            int port = range.portOf(index);
            assertThat(range.indexOf(address, port)).isEqualTo(index);
            assertThat(seen.add(MulticastRange.dotted(address) + ":" + port)).isTrue();
        }
        assertThat(range.capacity()).isEqualTo(12);
        assertThat(MulticastRange.dotted(range.addressOf(3))).isEqualTo("239.1.2.3");
        assertThat(range.portOf(3)).isEqualTo(50000);
        assertThat(range.portOf(4)).isEqualTo(50001);
        assertThat(range.indexOf(range.network() + 4, 50000)).isEqualTo(-1);
        assertThat(range.indexOf(range.network(), 50003)).isEqualTo(-1);
        assertThatThrownBy(() -> range.addressOf(12)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aSinglePortAndAHostBlockAreRanges() {
        MulticastRange range = MulticastRange.parse(" 239.255.255.255/32 ", "65535");

        assertThat(range.capacity()).isEqualTo(1);
        assertThat(range.ports()).isEqualTo("65535");
        assertThat(MulticastRange.dotted(range.addressOf(0))).isEqualTo("239.255.255.255");
        assertThat(MulticastRange.parse("239.0.0.0/8", "1024-65535").capacity()).isEqualTo((1L << 24) * 64_512);
    }

    @Test
    void everyMalformedRangeIsRefusedNamingTheFix() {
        assertRefused("224.0.0.0/4", "45000", "prefix /4 must be /8 to /32");
        assertRefused("224.1.0.0/16", "45000", "not inside 239.0.0.0/8");
        assertRefused("10.0.0.0/8", "45000", "administratively scoped");
        assertRefused("239.0.0.0/7", "45000", "prefix /7 must be /8 to /32");
        assertRefused("239.192.0.1/14", "45000", "did you mean 239.192.0.0/14?");
        assertRefused("239.192.0.0", "45000", "write it as ADDRESS/PREFIX");
        assertRefused("239.192.0.0/33", "45000", "prefix 33 is above 32");
        assertRefused("239.300.0.0/16", "45000", "octet 300 is above 255");
        assertRefused("239.010.0.0/16", "45000", "leading zero");
        assertRefused("239.192.0.0/14\n", "45000-x", "write FIRST-LAST");
        assertRefused("239.192.0.0/14", "80", "ports below 1024 need root");
        assertRefused("239.192.0.0/14", "46000-45000", "lowest first");
        assertRefused("239.192.0.0/14", "70000", "multicast port 70000 is above 65535");
        assertRefused("\u0007".repeat(100), "1", "\"??????");
    }

    private static void assertRefused(String cidr, String ports, String expected) {
        assertThatThrownBy(() -> MulticastRange.parse(cidr, ports)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(expected);
    }
}
