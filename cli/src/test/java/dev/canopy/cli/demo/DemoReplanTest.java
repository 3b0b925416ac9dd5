package dev.canopy.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The demo's live re-plan: with a long {@code --duration} the nodes run live plans, the demo slows down a heavy-WAN
 * link halfway, and the plan leader publishes a plan that routes around it, which the demo prints. Slow (two
 * minutes of probing and the leader's confirmations), so exhaustive only.
 */
@Tag("exhaustive")
@Timeout(400)
class DemoReplanTest {

    /** Three wide-area groups: the heavy-WAN tree can relay around a slow link. */
    private static final String THREE_GROUPS = """
            +( &(type = grid) (name = "three") )
             ( &(type = subjob) (label = "north") (count = 2) (wan_group = "north") (site = "north") )
             ( &(type = subjob) (label = "south") (count = 2) (wan_group = "south") (site = "south") )
             ( &(type = subjob) (label = "east") (count = 2) (wan_group = "east") (site = "east") )
             ( &(type = link) (between = "north" "south") (rtt_ms = 12) )
             ( &(type = link) (between = "north" "east") (rtt_ms = 60) )
             ( &(type = link) (between = "south" "east") (rtt_ms = 70) )
            """;

    @TempDir
    Path dir;

    @Test
    void aDegradedWanLinkIsFollowedByAReplan() throws Exception {
        Path config = Files.writeString(dir.resolve("three.rsl"), THREE_GROUPS);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("demo", "--config", config.toString(), "--pings", "1", "--job", "demo-replan", "--duration", "120");
        assertThat(exit).as(err.toString()).isZero();
        String text = out.toString();
        int degraded = text.indexOf("degraded WAN link east~");
        assertThat(degraded).as(text).isPositive();
        assertThat(text.substring(degraded)).as(text).containsPattern("(?m)^re-plan: epoch \\d+ \\(predicted gain \\d+\\.\\d ms\\)");
    }
}
