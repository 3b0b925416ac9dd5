package dev.canopy.gridconfig.internal.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.gridconfig.Diagnostic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Open MPI and Hydra hostfiles, comments and blank lines, and every problem with its line and column. */
@Timeout(30)
class HostfileTest {

    @TempDir
    Path directory;

    private static List<String> errors(String text) {
        HostList hosts = Hostfile.parse(text, "hosts");
        assertThat(hosts.isValid()).as("expected problems in %s", text).isFalse();
        assertThat(hosts.hosts()).isEmpty();
        return hosts.problems().stream().map(Diagnostic::format).toList();
    }

    @Test
    void openMpiAndHydraLinesWithCommentsAndBlankLinesGiveTheHostsInOrder() {
        HostList hosts = Hostfile.parse("""
                # the cluster
                n1.lyon.example slots=4 max_slots=8   # two sockets

                n2.lyon.example:2
                \tn3.nancy.example
                10.0.0.7 max-slots=1
                """, "hosts");

        assertThat(hosts.problems()).isEmpty();
        assertThat(hosts.hosts()).containsExactly(new LaunchHost("n1.lyon.example", 4, 2),
                new LaunchHost("n2.lyon.example", 2, 4), new LaunchHost("n3.nancy.example", 1, 5),
                new LaunchHost("10.0.0.7", 1, 6));
        assertThat(hosts.slots()).isEqualTo(8);
    }

    @Test
    void aHostListedTwiceHasTheSlotsOfBothLinesAtItsFirstPlaceAsMpirunCountsThem() {
        HostList hosts = Hostfile.parse("a slots=2\nb\na:3\r\na\n", "hosts");

        assertThat(hosts.hosts()).containsExactly(new LaunchHost("a", 6, 1), new LaunchHost("b", 1, 2));
    }

    @Test
    void everyProblemIsReportedWithItsLineAndColumn() {
        assertThat(errors("""
                good slots=2
                  bad slots=x
                bad2:0
                user@host slots=1
                n4 slots=2 cpus=4
                n5:2 slots=2
                n6 slots=4 max_slots=2
                n7 slots=99999999
                -n8
                """)).containsExactly(
                "hosts:2:13: error: slots must be a whole number, got \"x\"",
                "hosts:3:6: error: the slots after ':' must be at least 1, got 0",
                "hosts:4:1: error: host name \"user@host\" has the character \"@\"; host names are letters, digits, '.',"
                        + " '-' and '_' (user@host and IPv6 addresses are not supported)",
                "hosts:5:12: error: unknown option \"cpus=4\" after host n4; a hostfile line is 'host slots=N [max_slots=M]'"
                        + " (Open MPI) or 'host:N' (MPICH/Hydra)",
                "hosts:6:6: error: the slots of host n5 are given twice; keep one of 'host:N' and 'slots=N'",
                "hosts:7:1: error: host n6 has max_slots=2 below its 4 slots; raise max_slots or lower slots",
                "hosts:8:10: error: slots must be at most 1000000, got 99999999",
                "hosts:9:1: error: host name \"-n8\" must start with a letter or a digit");
    }

    @Test
    void aFileWithoutHostsSaysWhatToWrite() {
        assertThat(errors("# nothing here\n\n   \n")).containsExactly("hosts: error: lists no host; write one host per line:"
                + " 'node01 slots=4' (Open MPI) or 'node01:4' (MPICH/Hydra)");
    }

    @Test
    void hostileInputIsRefusedWithinItsBounds() throws Exception {
        assertThat(errors("a".repeat(5000))).containsExactly("hosts:1:1: error: line is longer than 4096 characters; not a"
                + " hostfile line (one host per line: node01 slots=4, or node01:4)");
        assertThat(errors("x\u001b[31m slots=1")).singleElement().asString().contains("\\u001b");
        assertThat(errors("h slots=600000\ni slots=600000\nj slots=600000\n")).containsExactly(
                "hosts:2:1: error: the hosts up to here have 1200000 slots, more than a job's 1000000 processes");
        assertThat(errors("h:x\n".repeat(500))).hasSize(101).last().asString()
                .isEqualTo("hosts:101:3: error: 400 more errors from here on are not shown (at most 100 are); fix the"
                        + " ones above first");
    }

    @Test
    void filesAreReadThroughTheBoundedReaderAndUnreadableOnesAreOneError() throws Exception {
        Path file = directory.resolve("hostfile");
        Files.writeString(file, "n1 slots=2\n");
        assertThat(Hostfile.load(file).hosts()).containsExactly(new LaunchHost("n1", 2, 1));

        assertThat(Hostfile.load(directory.resolve("missing")).problems()).extracting(Diagnostic::format)
                .containsExactly(directory.resolve("missing") + ": error: no such file");
        assertThat(Hostfile.load(directory).problems()).extracting(Diagnostic::format)
                .containsExactly(directory + ": error: is a directory, not a hostfile");
        Path binary = directory.resolve("binary");
        Files.write(binary, new byte[] {'n', '1', (byte) 0xC3, (byte) 0x28, '\n'});
        assertThat(Hostfile.load(binary).problems()).extracting(Diagnostic::format)
                .containsExactly(binary + ": error: is not UTF-8 text");
        Path large = directory.resolve("large");
        Files.writeString(large, "n1\n".repeat((int) Hostfile.MAX_FILE_BYTES / 3 + 1));
        assertThat(Hostfile.load(large).problems()).extracting(Diagnostic::format)
                .containsExactly(large + ": error: is larger than 4194304 bytes; not a hostfile");
    }
}
