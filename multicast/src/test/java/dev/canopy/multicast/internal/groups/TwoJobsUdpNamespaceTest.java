package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.RootOnly;
import dev.canopy.multicast.internal.fabric.udp.NetworkNamespaces;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two jobs at once over real IPv4 multicast in a network namespace this test creates ({@code canopy-mc-} prefix,
 * deleted afterwards): their communicators have the same context and group number, and leasing gives them
 * different addresses from one ZooKeeper, so no datagram of job A reaches job B or the reverse; without leases
 * (the control) the same two jobs hear each other. Needs root; skipped with the reason otherwise.
 */
class TwoJobsUdpNamespaceTest {

    @Test
    @Timeout(180)
    void twoJobsWithLeasedGroupsNeverHearEachOtherWhereUnleasedOnesDo() throws Exception {
        RootOnly.assumeAvailable(NetworkNamespaces.unavailableReason());
        NetworkNamespaces.removeStale();
        try (NetworkNamespaces namespaces = RootOnly.createOrSkip(() -> NetworkNamespaces.create(1))) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child = namespaces.exec(0, List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    TwoJobsUdpMain.class.getName(), NetworkNamespaces.addressOf(0))).redirectErrorStream(true).start();
            try {
                String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
                System.out.println(output.lines().filter(line -> line.startsWith("LEASE") || line.startsWith("UNLEASED"))
                        .reduce("", (all, line) -> all + line + "\n"));
                assertThat(child.exitValue()).as(output).isZero();
                String leases = line(output, "LEASES ");
                String a = leases.substring(leases.indexOf("a=") + 2, leases.indexOf(" b="));
                String b = leases.substring(leases.indexOf(" b=") + 3);
                assertThat(a.split("/")[0]).as("both members of a job get its one group").isEqualTo(a.split("/")[1]);
                assertThat(a.split("/")[0]).as("two jobs never share a group").isNotEqualTo(b.split("/")[0]);
                assertThat(line(output, "LEASED ")).as("leased: each job hears all its own and nothing of the other")
                        .isEqualTo("a_own=300 a_foreign=0 b_own=300 b_foreign=0");
                String unleased = line(output, "UNLEASED ");
                assertThat(unleased).as("the control: unleased, the jobs share an address and hear each other")
                        .contains("a_own=300").doesNotContain("a_foreign=0 ").doesNotContain("b_foreign=0");
            } finally {
                child.destroyForcibly();
            }
        }
    }

    private static String line(String output, String prefix) {
        return output.lines().filter(line -> line.startsWith(prefix)).findFirst().map(line -> line.substring(prefix.length()))
                .orElseThrow(() -> new AssertionError("no " + prefix + "line in:\n" + output));
    }
}
