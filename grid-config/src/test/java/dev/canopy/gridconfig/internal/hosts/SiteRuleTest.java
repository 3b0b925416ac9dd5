package dev.canopy.gridconfig.internal.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The three ways of grouping hosts into sites, and the hosts each cannot place. */
@Timeout(30)
class SiteRuleTest {

    @Test
    void domainIsTheNameWithoutItsFirstLabel() {
        SiteRule domain = SiteRule.parse("domain");
        assertThat(domain.siteOf("n1.lyon.grid.example")).contains("lyon.grid.example");
        assertThat(domain.siteOf("n1")).isEmpty();
        assertThat(domain.siteOf("10.0.0.1")).isEmpty();
        assertThat(domain.cannotPlace("n1")).startsWith("host n1 has no domain (its name has no dot)");
        assertThat(domain.cannotPlace("10.0.0.1")).startsWith("host 10.0.0.1 has no domain (it is an IP address)");
    }

    @Test
    void prefixIsWhatTheExpressionMatchesAtTheStartOrItsFirstGroup() {
        assertThat(SiteRule.parse("prefix:[a-z]+").siteOf("gpu07")).contains("gpu");
        assertThat(SiteRule.parse("prefix:(rack\\d+)-").siteOf("rack12-n07")).contains("rack12");
        assertThat(SiteRule.parse("prefix:[a-z]+").siteOf("07gpu")).isEmpty();
        assertThat(SiteRule.parse("prefix:(x)?").siteOf("abc")).isEmpty(); // matches, but the group captured nothing
        assertThat(SiteRule.parse("prefix:[a-z]+").cannotPlace("07gpu")).isEqualTo("prefix:[a-z]+ matches nothing at the"
                + " start of host 07gpu; change the expression so that it matches every host's site part");
        assertThat(SiteRule.parse("prefix:(rack\\d+)-").spec()).isEqualTo("prefix:(rack\\d+)-");
    }

    @Test
    void subnetIsTheIpv4NetworkAndNamesAreNotResolved() {
        assertThat(SiteRule.parse("subnet:/24").siteOf("10.1.2.7")).contains("10.1.2.0/24");
        assertThat(SiteRule.parse("subnet:/16").siteOf("192.168.200.1")).contains("192.168.0.0/16");
        assertThat(SiteRule.parse("subnet:/32").siteOf("255.255.255.255")).contains("255.255.255.255/32");
        assertThat(SiteRule.parse("subnet:/0").siteOf("8.8.8.8")).contains("0.0.0.0/0");
        assertThat(SiteRule.parse("subnet:/20").siteOf("172.16.47.9")).contains("172.16.32.0/20");
        assertThat(SiteRule.parse("subnet:/24").siteOf("localhost")).isEqualTo(Optional.empty());
        assertThat(SiteRule.parse("subnet:/24").siteOf("10.1.2.256")).isEmpty();
        assertThat(SiteRule.parse("subnet:/24").cannotPlace("n1")).startsWith("host n1 is not written as an IPv4 address;"
                + " subnet:/24 does not resolve names");
    }

    @Test
    void malformedRulesNameTheForms() {
        assertThatThrownBy(() -> SiteRule.parse("domains")).hasMessage("\"domains\" is not a site rule; use domain,"
                + " prefix:REGEX (e.g. prefix:[a-z]+) or subnet:/N (e.g. subnet:/24, for hosts written as IPv4 addresses)");
        assertThatThrownBy(() -> SiteRule.parse("prefix:")).hasMessageStartingWith("prefix: needs a regular expression");
        assertThatThrownBy(() -> SiteRule.parse("prefix:[a-")).hasMessageStartingWith("prefix:[a- is not a regular expression");
        assertThatThrownBy(() -> SiteRule.parse("subnet:/33")).hasMessageStartingWith("subnet:/33 needs a prefix length 0 to 32");
        assertThatThrownBy(() -> SiteRule.parse("subnet:24")).hasMessageStartingWith("\"subnet:24\" is not a site rule");
    }
}
