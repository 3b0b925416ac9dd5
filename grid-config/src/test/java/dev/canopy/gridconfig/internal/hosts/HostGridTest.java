package dev.canopy.gridconfig.internal.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.gridconfig.model.Site;
import dev.canopy.gridconfig.model.Subjob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Level files written for a launcher's hosts: they read back with the project's own parser, every process
 * sits on the host where the launcher puts the rank of the same number, and hosts are grouped into sites
 * by the user's rule.
 */
@Timeout(30)
class HostGridTest {

    private static GridModel written(HostList hosts, String rule) {
        HostGrid.Result result = HostGrid.levelFile(hosts, SiteRule.parse(rule), "test-grid", "canopy config from-hostfile hosts");
        assertThat(result.problems()).isEmpty();
        ParseResult reread = GridConfigs.parse(result.levelFile().orElseThrow(), "written.rsl");
        assertThat(reread.diagnostics()).as(result.levelFile().get()).isEmpty();
        assertThat(reread.orElseThrow()).isEqualTo(result.grid().orElseThrow());
        return reread.orElseThrow();
    }

    /** The host of each rank as mpirun fills slots in hostfile order (and srun with block distribution). */
    private static List<String> launcherPlacement(HostList hosts) {
        List<String> placement = new ArrayList<>();
        hosts.hosts().forEach(host -> {
            for (int slot = 0; slot < host.slots(); slot++) {
                placement.add(host.name());
            }
        });
        return placement;
    }

    @Test
    void aHostfileGroupedByDomainReadsBackWithEveryProcessOnItsLaunchersHost() {
        HostList hosts = Hostfile.parse("""
                n1.lyon.example slots=2
                n2.lyon.example slots=2
                n1.nancy.example:4
                n3.lyon.example
                """, "hosts");

        GridModel grid = written(hosts, "domain");

        assertThat(grid.name()).isEqualTo("test-grid");
        assertThat(grid.processCount()).isEqualTo(9);
        assertThat(grid.sites()).extracting(Site::name).containsExactlyInAnyOrder("lyon.example", "nancy.example");
        // n3.lyon comes after nancy's host: lyon has two subjobs, so that process 8 is on n3 as rank 8 is.
        assertThat(grid.subjobs()).extracting(Subjob::label).containsExactly("lyon.example", "nancy.example", "lyon.example-2");
        assertThat(grid.processes()).extracting(process -> process.coordinates().host())
                .containsExactlyElementsOf(launcherPlacement(hosts));
        assertThat(grid.processes()).extracting(process -> process.coordinates().site()).containsExactly("lyon.example",
                "lyon.example", "lyon.example", "lyon.example", "nancy.example", "nancy.example", "nancy.example",
                "nancy.example", "lyon.example");
    }

    @Test
    void slurmHostsGroupedByPrefixReadBack() {
        HostList hosts = SlurmHosts.fromEnvironment(Map.of("SLURM_JOB_NODELIST", "gpu[01-02],cpu[001-003]",
                "SLURM_TASKS_PER_NODE", "4(x2),1(x3)"));

        GridModel grid = written(hosts, "prefix:[a-z]+");

        assertThat(grid.processCount()).isEqualTo(11);
        assertThat(grid.subjobs()).extracting(Subjob::label, Subjob::count).containsExactly(
                org.assertj.core.groups.Tuple.tuple("gpu", 8), org.assertj.core.groups.Tuple.tuple("cpu", 3));
        assertThat(grid.processes()).extracting(ProcessPlacement::coordinates).extracting(c -> c.host())
                .containsExactlyElementsOf(launcherPlacement(hosts));
    }

    @Test
    void addressesGroupedBySubnetAndLabelsThatNeverTakeAnotherSitesName() {
        HostList hosts = Hostfile.parse("10.0.1.1\n10.0.2.1\n10.0.1.2\n10.0.1.3:2\n10.0.2.2\n", "hosts");

        GridModel grid = written(hosts, "subnet:/24");

        assertThat(grid.subjobs()).extracting(Subjob::label).containsExactly("10.0.1.0/24", "10.0.2.0/24",
                "10.0.1.0/24-2", "10.0.2.0/24-2");
        assertThat(grid.sites()).hasSize(2);
        // a site literally named like another site's second subjob
        HostList tricky = Hostfile.parse("a-2.x\nb.a\nc.a\nd.a-2.x\n", "hosts");
        GridModel labelled = written(tricky, "prefix:[a-z]+(?:-2)?");
        assertThat(labelled.subjobs()).extracting(Subjob::label).containsExactly("a-2", "b", "c", "d");
        GridModel repeated = written(Hostfile.parse("a1\nb1\na2\nb2\na3\n", "hosts"), "prefix:[a-z]");
        assertThat(repeated.subjobs()).extracting(Subjob::label).containsExactly("a", "b", "a-2", "b-2", "a-3");
    }

    @Test
    void hostsTheRuleCannotPlaceAreReportedWithTheirLines() {
        HostList hosts = Hostfile.parse("n1.lyon.example\n# comment\nn2\n10.0.0.1 slots=2\n", "hosts");

        HostGrid.Result result = HostGrid.levelFile(hosts, SiteRule.parse("domain"), "g", "test");

        assertThat(result.levelFile()).isEmpty();
        assertThat(result.problems()).extracting(Diagnostic::format).containsExactly(
                "hosts:3:1: error: host n2 has no domain (its name has no dot); write the host's full name"
                        + " (n2.cluster.example), or group hosts with --site-by prefix:REGEX or subnet:/N",
                "hosts:4:1: error: host 10.0.0.1 has no domain (it is an IP address); write the host's full name"
                        + " (10.0.0.1.cluster.example), or group hosts with --site-by prefix:REGEX or subnet:/N");
        HostGrid.Result slurm = HostGrid.levelFile(SlurmHosts.fromEnvironment(Map.of("SLURM_JOB_NODELIST", "n[1-2]")),
                SiteRule.parse("subnet:/24"), "g", "test");
        assertThat(slurm.problems()).extracting(Diagnostic::format).first().asString()
                .startsWith("SLURM_JOB_NODELIST: error: host n1 is not written as an IPv4 address");
    }

    @Test
    void theCommentSurvivesWhateverTheRuleAndOriginSay() {
        HostList hosts = Hostfile.parse("ab1\n", "hosts");

        HostGrid.Result result = HostGrid.levelFile(hosts, SiteRule.parse("prefix:(a*)b"), "name \"quoted\" *)",
                "from weird (* origin *)");

        assertThat(result.problems()).isEmpty();
        assertThat(result.grid().orElseThrow().name()).isEqualTo("name \"quoted\" *)");
        assertThat(result.levelFile().orElseThrow()).startsWith("(* from weird ( * origin * ): 1 host, 1 processes in 1 site"
                + " (--site-by prefix:(a* )b).");
    }

    @Test
    void manyHostsAreWrittenSixToALine() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 13; i++) {
            text.append("n").append(i).append(".x\n");
        }
        HostGrid.Result result = HostGrid.levelFile(Hostfile.parse(text.toString(), "hosts"), SiteRule.parse("domain"),
                "g", "test");

        assertThat(result.levelFile().orElseThrow()).contains("(hosts = \"n0.x:1\" \"n1.x:1\" \"n2.x:1\" \"n3.x:1\" \"n4.x:1\""
                + " \"n5.x:1\"\n      \"n6.x:1\"");
        assertThat(result.grid().orElseThrow().processCount()).isEqualTo(13);
    }
}
