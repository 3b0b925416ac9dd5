package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host whose ssh session ends before its processes report an exit status ({@code /bin/false} standing in for an
 * ssh that gets nowhere): each of its processes is reported {@code unreported}, with the session's status and why,
 * not as a program that failed.
 */
class UnreportedExitTest {

    @TempDir
    Path directory;

    @Test
    void theProcessesOfAHostWhoseSessionEndedAreNamedGoneWithTheSessionsStatus() throws Exception {
        Path hostfile = Files.writeString(directory.resolve("hosts"), "127.0.0.1 slots=2\n");
        StringWriter out = new StringWriter();
        int status = CanopyMain.run(new PrintWriter(out), new PrintWriter(out), "launch", "--hostfile", hostfile.toString(),
                "--site-by", "subnet:/32", "--class", "demo.Sums", "--ssh", "/bin/false", "--timeout", "60");

        assertThat(status).as(out.toString()).isEqualTo(1);
        assertThat(out.toString())
                .contains("the ssh session to 127.0.0.1 ended with status 1 before process(es) [0, 1] reported an exit status")
                .contains("rank 0 failed with exit status 1: its host's ssh session ended before it reported an exit status")
                .contains("rank 1 failed with exit status 1: its host's ssh session ended before it reported an exit status")
                .doesNotContain("the program failed");
    }
}
