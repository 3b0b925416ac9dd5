package dev.canopy.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DemoCommandTest {

    private static final String TWO_SITES = """
            +( &(type = grid) (name = "pair") )
             ( &(type = subjob) (label = "alpha") (count = 2) )
             ( &(type = subjob) (label = "beta") (count = 1) )
             ( &(type = link) (between = "alpha" "beta") (rtt_ms = 230) )
            """;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        return new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute(args);
    }

    private Path levelFile(String text) throws IOException {
        return Files.writeString(dir.resolve("grid.rsl"), text);
    }

    @Test
    void theDefaultRunIsTheBundledEightSiteGrid() {
        int exit = run("demo", "--pings", "1", "--job", "cli-demo-default");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("ZooKeeper: embedded, listening on 127.0.0.1:")
                .contains("grid mpich-gx-8site: 32 processes; WAN emulation: 56 directed site links")
                .contains("job cli-demo-default: 32 members")
                .contains("992 ordered pairs exchanged 992 pings and 992 pongs")
                // The default run's live re-plan: a WAN link slowed down, the second epoch printed with its gain,
                // rank 0's tree before and after, and the timings.
                .containsPattern("(?m)^re-plan: epoch 1: first plan of the job, on the demo's measurements")
                .containsPattern("(?m)^degraded WAN link \\S+~\\S+ [\\d.]+ -> [\\d.]+ ms RTT")
                .containsPattern("(?m)^re-plan: epoch 2 \\(predicted gain \\d+\\.\\d ms\\): re-plan: new plan")
                .contains("rank 0's wide-area tree edges now:")
                .containsPattern("(?m)^new plan +[\\d.]+ +[\\d.]+$")
                .contains("all nodes left the job and closed");
    }

    @Test
    void aLevelFileGivesTheNodesTheirSitesAndTheEmulatedLinkIsInThePath() throws IOException {
        int exit = run("demo", "--config", levelFile(TWO_SITES).toString(), "--pings", "2", "--job", "cli-demo");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("grid pair: 3 processes; WAN emulation: 2 directed site links, 230.0 to 230.0 ms RTT (seed 1)")
                .contains("job cli-demo: 3 members")
                .containsPattern("(?m)^   0  \\S+ +alpha +alpha +alpha +127\\.0\\.0\\.1:\\d+/\\d+$")
                .containsPattern("(?m)^   2  \\S+ +beta +beta +beta ")
                .contains("6 ordered pairs exchanged 12 pings and 12 pongs")
                .contains("all nodes left the job and closed");
        Matcher alphaToBeta = Pattern.compile("(?m)^alpha +beta +230\\.0 +(\\d+\\.\\d) +2$").matcher(out.toString());
        assertThat(alphaToBeta.find()).as(out.toString()).isTrue();
        // In the path, not merely configured: a loopback round trip takes well under a millisecond, even under load
        // tens of milliseconds at most. The bound is not 230: the emulator starts each message earlier by the
        // hand-off and loopback latency it has recently seen, and when a burst of load ends it overestimates them
        // (single pings of a 250 ms link measured 244 ms under load), so 2 pings can come in a few ms early.
        assertThat(Double.parseDouble(alphaToBeta.group(1))).as("measured RTT over the emulated link")
                .isGreaterThanOrEqualTo(0.9 * 230);
    }

    @Test
    void quickSkipsTheTreeRaceThatTheFullRunShows() throws IOException {
        Path config = levelFile(TWO_SITES);
        int exit = run("demo", "--quick", "--config", config.toString(), "--pings", "1", "--job", "cli-demo-quick");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("job cli-demo-quick: 3 members").contains("recorded 3 collectives")
                .contains("all nodes left the job and closed").doesNotContain("by each heavy-WAN tree")
                .doesNotContain("degraded WAN link");

        out.getBuffer().setLength(0);
        exit = run("demo", "--config", config.toString(), "--pings", "1", "--job", "cli-demo-full");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("by each heavy-WAN tree").contains("all nodes left the job and closed");
    }

    @Test
    void anExistingEnsembleIsUsedInsteadOfTheEmbeddedServer() throws IOException {
        try (EmbeddedZooKeeper ensemble = EmbeddedZooKeeper.start()) {
            int exit = run("demo", "--zk", ensemble.connectString(), "--config", levelFile(TWO_SITES).toString(), "--pings", "1");

            assertThat(exit).as(err.toString()).isZero();
            assertThat(out.toString()).contains("ZooKeeper: ensemble " + ensemble.connectString())
                    .containsPattern("job demo-\\d+: 3 members");
        }
    }

    @Test
    void badArgumentsExitWithTwoAndSayWhatToGive() throws IOException {
        assertThat(run("demo", "--job", "no/slash")).isEqualTo(2);
        assertThat(err.toString()).contains("--job: job name 'no/slash'");
        assertThat(run("demo", "--zk", " ")).isEqualTo(2);
        assertThat(err.toString()).contains("--zk is empty");
        assertThat(run("demo", "--config", dir.resolve("missing.rsl").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("missing.rsl does not exist");
        assertThat(run("demo", "--config", levelFile("+( &(type = subjob) (count = 0) )").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("is not a valid level file").contains("grid.rsl:1:");
        assertThat(run("demo", "--quick", "--duration", "5")).isEqualTo(2);
        assertThat(err.toString()).contains("--quick and --duration exclude each other");
    }
}
