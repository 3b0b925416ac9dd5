package dev.canopy.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.core.membership.EmbeddedZooKeeper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute(args);
    }

    @Test
    void threeNodesJoinPrintTheRankTableAndPingEachOther() {
        int exit = run("demo", "--nodes", "3", "--pings", "2", "--job", "cli-demo");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("ZooKeeper: embedded, listening on 127.0.0.1:")
                .contains("WAN emulation: berlin-paris 18 ms, seoul-tokyo 33 ms, other site pairs 230 ms RTT (seed 1)")
                .contains("job cli-demo: 3 members")
                .containsPattern("(?m)^   0  node1 +asia +seoul +seoul-h0 +127\\.0\\.0\\.1:\\d+/\\d+$")
                .containsPattern("(?m)^   1  node0 +asia +tokyo ")
                .containsPattern("(?m)^   2  node2 +europe +paris ")
                .contains("6 ordered pairs exchanged 12 pings and 12 pongs")
                // Tokyo (rank 1) and Paris (rank 2) are 230 ms apart: the emulated WAN is really in the path.
                .containsPattern("(?m)^      1 +\\d+\\.\\d+ +- +(?:[2-9]\\d\\d|\\d{4,})\\.\\d+$")
                .contains("all nodes left the job and closed");
    }

    @Test
    void anExistingEnsembleIsUsedInsteadOfTheEmbeddedServer() {
        try (EmbeddedZooKeeper ensemble = EmbeddedZooKeeper.start()) {
            int exit = run("demo", "--zk", ensemble.connectString(), "--nodes", "2", "--pings", "1");

            assertThat(exit).as(err.toString()).isZero();
            assertThat(out.toString()).contains("ZooKeeper: ensemble " + ensemble.connectString())
                    .containsPattern("job demo-\\d+: 2 members");
        }
    }

    @Test
    void badArgumentsExitWithTwoAndSayWhatToGive() {
        assertThat(run("demo", "--nodes", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--nodes 0 is out of range; give 1 to 64");
        assertThat(run("demo", "--job", "no/slash")).isEqualTo(2);
        assertThat(err.toString()).contains("--job: job name 'no/slash'");
        assertThat(run("demo", "--zk", " ")).isEqualTo(2);
        assertThat(err.toString()).contains("--zk is empty");
    }
}
