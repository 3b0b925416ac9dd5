package dev.canopy.cli.bench.segmentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.canopy.cli.CanopyCommand;
import dev.canopy.cli.bench.namespaces.NamespaceSupport;
import dev.canopy.multicast.internal.fabric.udp.NetworkNamespaces;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code canopy bench segmentation}: root only, its input errors, and a small run on a real shaped cluster. */
class SegmentationBenchCommandTest {

    @Test
    void withoutRootItSaysSoAndExitsTwo() {
        Supplier<Optional<String>> real = NamespaceSupport.unavailable;
        NamespaceSupport.unavailable = () -> Optional.of("runs on emulated hosts create network"
                + " namespaces and need root (running as test)");
        try {
            StringWriter err = new StringWriter();
            StringWriter out = new StringWriter();
            int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                    .execute("bench", "segmentation", "--hosts", "3");
            assertThat(status).isEqualTo(2);
            assertThat(err.toString()).contains("need root (running as test)").contains("run it as root");
            assertThat(out.toString()).isEmpty();
        } finally {
            NamespaceSupport.unavailable = real;
        }
    }

    @Test
    void badInputIsNamedAndExitsTwo() {
        assertRefused("--hosts must be 2 to 64, got 1", "--hosts", "1");
        assertRefused("--queue-packets must be 1 to 100000, got 0", "--queue-packets", "0");
        assertRefused("--rate-mbit must be 1 to 100000, got 0", "--rate-mbit", "0");
        assertRefused("--sizes must increase", "--sizes", "1024,512,2048");
        assertRefused("--repetitions and --calibration-repetitions must be at least 2", "--repetitions", "1");
        assertRefused("--escalation-share more than 0 and at most 1", "--escalation-share", "0");
    }

    /**
     * As root: three hosts in namespaces on shaped links, calibration stored in and read back from the job's
     * ZooKeeper, native against optimised; the JSON has the shape and the namespaces are gone afterwards.
     * A few minutes of JVM starts and runs on the shared machine, so exhaustive only.
     */
    @Test
    @Tag("exhaustive")
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void aSmallRunOnARealShapedClusterPrintsTheContractAndLeavesNoNamespaces(@TempDir Path temporary) throws Exception {
        Optional<String> unavailable = NetworkNamespaces.unavailableReason();
        assumeTrue(unavailable.isEmpty(), () -> "skipped: " + unavailable.orElse(""));
        Path plot = temporary.resolve("segmentation.svg");
        StringWriter out = new StringWriter();
        int status = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out)).execute("bench", "segmentation",
                "--hosts", "3", "--rate-mbit", "100", "--queue-packets", "8", "--sizes", "1024,8192,65536",
                "--repetitions", "3", "--calibration-repetitions", "3", "--json", "--plot", plot.toString());
        assertThat(status).isZero();
        JsonObject report = new JsonObject(out.toString());
        SegmentationReportTest.assertContractShape(report, 3, 100, 8);
        assertThat(report.getJsonArray("results")).hasSize(6);
        assertThat(Files.readString(plot)).contains("<svg").contains("gather native").contains("gather optimised");
        assertThat(namespacesOfThisProcess()).as("namespaces left behind").isEmpty();
    }

    private static void assertRefused(String message, String... options) {
        StringWriter err = new StringWriter();
        String[] args = new String[options.length + 2];
        args[0] = "bench";
        args[1] = "segmentation";
        System.arraycopy(options, 0, args, 2, options.length);
        int status = new CommandLine(new CanopyCommand()).setErr(new PrintWriter(err)).execute(args);
        assertThat(status).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).contains(message);
    }

    private static List<String> namespacesOfThisProcess() throws Exception {
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String output = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        list.waitFor(10, TimeUnit.SECONDS);
        String mine = SegmentationBenchCommand.NAMESPACE_PREFIX + ProcessHandle.current().pid() + "-";
        return output.lines().filter(line -> line.startsWith(mine)).toList();
    }
}
