package dev.canopy.gridconfig.internal.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.Diagnostic;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Slurm's compressed node lists and tasks per node, as a batch script or a step sees them. */
@Timeout(30)
class SlurmHostsTest {

    private static List<String> names(String list) {
        SlurmNodelist.Expansion expansion = SlurmNodelist.expand(list);
        assertThat(expansion.problem()).as(list).isEmpty();
        return expansion.names();
    }

    private static String problem(String list) {
        SlurmNodelist.Expansion expansion = SlurmNodelist.expand(list);
        assertThat(expansion.names()).as(list).isEmpty();
        return expansion.problem().orElseThrow();
    }

    @Test
    void compressedListsExpandWithZeroPaddingAndSeveralBracketGroups() {
        assertThat(names("node[01-04,07]")).containsExactly("node01", "node02", "node03", "node04", "node07");
        assertThat(names("n[8-11],gpu1,x[098-100]")).containsExactly("n8", "n9", "n10", "n11", "gpu1", "x098", "x099", "x100");
        assertThat(names("rack[1-2]-n[01-02].lyon")).containsExactly("rack1-n01.lyon", "rack1-n02.lyon", "rack2-n01.lyon",
                "rack2-n02.lyon");
        assertThat(names("single")).containsExactly("single");
        assertThat(names("a[0]")).containsExactly("a0");
    }

    @Test
    void malformedListsSayWhatIsWrong() {
        assertThat(problem("node[01-04")).isEqualTo("'[' is never closed in \"node[01-04\"");
        assertThat(problem("node01-04]")).isEqualTo("']' without '[' in \"node01-04]\"");
        assertThat(problem("n[4-1]")).isEqualTo("range 4-1 in \"n[4-1]\" runs backwards; write 1-4");
        assertThat(problem("n[a-b]")).startsWith("\"a-b\" in \"n[a-b]\" is not a number or a range lo-hi");
        assertThat(problem("n[]")).isEqualTo("empty brackets '[]' in \"n[]\"");
        assertThat(problem("n[[1]]")).isEqualTo("brackets are nested in \"n[[1]]\"");
        assertThat(problem("a,,b")).startsWith("the node list \"a,,b\" has an empty name");
        assertThat(problem("  ")).isEqualTo("the node list is empty");
        assertThat(problem("n[1-2]@x")).contains("has the character \"@\"");
    }

    @Test
    void hugeListsAreRefusedBeforeTheyAreExpanded() {
        assertThat(problem("n[0-999999999]")).isEqualTo("the node list names more than 100000 hosts");
        assertThat(problem("a[1-1000]b[1-1000]")).isEqualTo("the node list names more than 100000 hosts");
        assertThat(problem("n[1-9999999999]")).contains("at most 9 digits");
    }

    @Test
    void tasksPerNodeGiveEachNodeItsSlotsInListOrder() {
        HostList hosts = SlurmHosts.fromEnvironment(Map.of("SLURM_JOB_NODELIST", "node[01-04]",
                "SLURM_TASKS_PER_NODE", "2(x3),1"));

        assertThat(hosts.hosts()).containsExactly(new LaunchHost("node01", 2, 0), new LaunchHost("node02", 2, 0),
                new LaunchHost("node03", 2, 0), new LaunchHost("node04", 1, 0));
        assertThat(hosts.source()).isEqualTo("SLURM_JOB_NODELIST");
    }

    @Test
    void insideAStepTheStepsVariablesWin() {
        HostList hosts = SlurmHosts.fromEnvironment(Map.of("SLURM_JOB_NODELIST", "node[01-04]",
                "SLURM_TASKS_PER_NODE", "2(x4)", "SLURM_STEP_NODELIST", "node[02-03]", "SLURM_STEP_TASKS_PER_NODE", "3,1"));

        assertThat(hosts.hosts()).containsExactly(new LaunchHost("node02", 3, 0), new LaunchHost("node03", 1, 0));
        assertThat(SlurmHosts.fromEnvironment(Map.of("SLURM_JOB_NODELIST", "a,b")).hosts()).extracting(LaunchHost::slots)
                .containsExactly(1, 1);
    }

    @Test
    void tasksThatDoNotFitTheNodesOrAreMalformedAreErrorsNamingTheVariable() {
        assertThat(problems("n[1-3]", "2(x2)")).containsExactly("SLURM_TASKS_PER_NODE: error: SLURM_TASKS_PER_NODE=\"2(x2)\""
                + " gives tasks for 2 nodes, but SLURM_JOB_NODELIST lists 3");
        assertThat(problems("n[1-3]", "2(x4)")).containsExactly("SLURM_TASKS_PER_NODE: error: SLURM_TASKS_PER_NODE=\"2(x4)\":"
                + " it gives tasks for more nodes than the node list's 3");
        assertThat(problems("n[1-2]", "2(3),1")).singleElement().asString().contains("\"2(3)\" is not N or N(xM)");
        assertThat(problems("n[1-2]", "0,1")).singleElement().asString().contains("\"0\" is not N or N(xM) with whole numbers");
        assertThat(problems("n[1-2]", "1,")).singleElement().asString().contains("\"\" is not N or N(xM)");
        assertThat(problems("a,a", "1,1")).containsExactly("SLURM_JOB_NODELIST: error: node a is listed twice in"
                + " SLURM_JOB_NODELIST");
        assertThat(SlurmHosts.fromEnvironment(Map.of()).problems()).extracting(Diagnostic::format).singleElement()
                .asString().startsWith("SLURM_JOB_NODELIST: error: neither SLURM_STEP_NODELIST nor SLURM_JOB_NODELIST is set");
    }

    private static List<String> problems(String nodelist, String tasks) {
        return SlurmHosts.of("SLURM_JOB_NODELIST", nodelist, "SLURM_TASKS_PER_NODE", Optional.of(tasks)).problems().stream()
                .map(Diagnostic::format).toList();
    }
}
