package dev.canopy.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The {@code canopy bench p2p} contract: exit codes, messages, and a real two-JVM run. */
class P2pBenchCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(args);
    }

    @Test
    void aSizeOutOfRangeIsBadInputNamingTheOption() {
        assertThat(run("bench", "p2p", "--sizes", "8,0")).isEqualTo(2);
        assertThat(err.toString()).contains("message size 0").contains("--sizes");
    }

    @Test
    void aRepeatedSizeIsBadInput() {
        assertThat(run("bench", "p2p", "--sizes", "8,8")).isEqualTo(2);
        assertThat(err.toString()).contains("twice");
    }

    @Test
    void tooFewRoundsIsBadInput() {
        assertThat(run("bench", "p2p", "--rounds", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("--rounds");
    }

    @Test
    void noStreamRepeatsIsBadInput() {
        assertThat(run("bench", "p2p", "--stream-repeats", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--stream-repeats 0");
    }

    @Test
    @Tag("multiprocess")
    void aShortRunMeasuresEveryTransportAgainstASecondJvm() {
        int exit = run("bench", "p2p", "--sizes", "8,70000", "--rounds", "20", "--stream-bytes", "200000", "--json",
                "--jit-warm-up", "500");

        assertThat(exit).as("stderr: %s", err).isZero();
        JsonObject report = new JsonObject(out.toString());
        assertThat(report.getJsonObject("machine").getInteger("nproc")).isPositive();
        assertThat(report.getLong("peer_pid")).isNotEqualTo(ProcessHandle.current().pid());
        assertThat(report.getInteger("stream_repeats")).isEqualTo(5);
        JsonArray results = report.getJsonArray("results");
        assertThat(results).hasSize(2);
        for (int i = 0; i < results.size(); i++) {
            JsonObject size = results.getJsonObject(i);
            for (String probe : new String[] {"canopy", "canopy-tls", "netsocket"}) {
                JsonObject row = size.getJsonObject(probe);
                assertThat(row.getDouble("rtt_median_us")).as("%s %s", probe, size).isPositive();
                assertThat(row.getDouble("rtt_p99_us")).isGreaterThanOrEqualTo(row.getDouble("rtt_median_us"));
                assertThat(row.getDouble("throughput_mb_s")).isPositive();
                assertThat(row.getInteger("round_trips")).isEqualTo(20);
            }
        }
    }

    @Test
    @Tag("multiprocess")
    void theTableNamesTheMachineAndBothTransports() {
        assertThat(run("bench", "p2p", "--sizes", "64", "--rounds", "10", "--stream-bytes", "20000", "--jit-warm-up", "500"))
                .isZero();

        assertThat(out.toString()).contains("canopy p50").contains("tls p50").contains("netsock p50").contains("CPUs")
                .containsPattern("(?m)^ *64  ");
    }
}
