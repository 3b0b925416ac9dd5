package dev.canopy.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The demo's side-by-side bcast: on a grid whose direct link is slow, HLOT relays and beats the flat tree. */
class DemoTreeRaceTest {

    /** From alpha, beta is 20 ms RTT away and gamma 300 ms directly but 40 ms through beta. */
    private static final String DETOUR = """
            +( &(type = grid) (name = "detour") )
             ( &(type = subjob) (label = "alpha") (count = 1) (wan_group = "alpha") )
             ( &(type = subjob) (label = "beta") (count = 1) (wan_group = "beta") )
             ( &(type = subjob) (label = "gamma") (count = 1) (wan_group = "gamma") )
             ( &(type = link) (between = "alpha" "beta") (rtt_ms = 20) )
             ( &(type = link) (between = "beta" "gamma") (rtt_ms = 20) )
             ( &(type = link) (between = "alpha" "gamma") (rtt_ms = 300) )
            """;

    @TempDir
    Path dir;

    @Test
    void hlotRelaysAroundTheSlowLinkAndNoTreeBeatsTheLowerBound() throws Exception {
        Path config = Files.writeString(dir.resolve("detour.rsl"), DETOUR);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new CanopyCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("demo", "--config", config.toString(), "--pings", "1");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("(site alpha) by each heavy-WAN tree");
        Matcher row = Pattern.compile("(?m)^ *1024  (\\w+) +(\\d+\\.\\d) +(\\d+\\.\\d) +(\\d+\\.\\d)$").matcher(out.toString());
        Map<String, double[]> rows = new HashMap<>();
        while (row.find()) {
            rows.put(row.group(1), new double[] {Double.parseDouble(row.group(2)), Double.parseDouble(row.group(3)),
                Double.parseDouble(row.group(4))});
        }
        assertThat(rows).as(out.toString()).containsOnlyKeys("flat", "binomial", "hlot");
        double lowerBound = rows.get("hlot")[2];
        assertThat(lowerBound).as("two 10 ms hops").isBetween(19.0, 25.0);
        assertThat(rows.get("flat")[1]).as("flat's prediction waits for the 150 ms direct link").isGreaterThan(140);
        assertThat(rows.get("hlot")[1]).isLessThan(0.5 * rows.get("flat")[1]);
        // Measured: the emulator may run a little fast, so allow 20 % under the bound; HLOT wins by far.
        for (double[] measured : rows.values()) {
            assertThat(measured[0]).isGreaterThanOrEqualTo(0.8 * lowerBound);
        }
        assertThat(rows.get("hlot")[0]).isLessThan(rows.get("flat")[0]);
    }
}
