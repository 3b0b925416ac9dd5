package dev.canopy.multicast.internal.fabric.udp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.RootOnly;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Stale namespaces are recognised by name: only this class's, with the creating process's id. */
class NetworkNamespacesTest {

    @Test
    void theOwnerIsReadFromNamesOfThisClassOnly() {
        assertThat(NetworkNamespaces.ownerOf(NetworkNamespaces.PREFIX + "4242-1-h3")).isEqualTo(OptionalLong.of(4242));
        assertThat(NetworkNamespaces.ownerOf(NetworkNamespaces.PREFIX + "4242-2-br")).isEqualTo(OptionalLong.of(4242));
        assertThat(NetworkNamespaces.ownerOf("cmc1a2b-h0")).isEmpty();
        assertThat(NetworkNamespaces.ownerOf(NetworkNamespaces.PREFIX + "x-1-br")).isEmpty();
        assertThat(NetworkNamespaces.ownerOf("someone-elses")).isEmpty();
    }

    /** As root: a namespace whose creator is gone is removed; this live process's and foreign names stay. */
    @Test
    @Timeout(60)
    void staleNamespacesOfDeadProcessesAreRemovedOthersStay() throws Exception {
        RootOnly.assumeAvailable(NetworkNamespaces.unavailableReason());
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        String stale = NetworkNamespaces.PREFIX + exited.pid() + "-1-br";
        String live = NetworkNamespaces.PREFIX + ProcessHandle.current().pid() + "-99-br";
        try {
            ip("netns", "add", stale);
            ip("netns", "add", live);

            assertThat(NetworkNamespaces.removeStale()).contains(stale).doesNotContain(live);

            assertThat(ip("netns", "list")).doesNotContain(stale).contains(live);
        } finally {
            new ProcessBuilder("ip", "netns", "del", stale).start().waitFor();
            new ProcessBuilder("ip", "netns", "del", live).start().waitFor();
        }
    }

    @Test
    void hostAddressesStayInTheirOwnSubnet() {
        assertThat(NetworkNamespaces.addressOf(0)).isEqualTo("10.213.0.1");
        assertThat(NetworkNamespaces.addressOf(15)).isEqualTo("10.213.0.16");
    }

    private static String ip(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("%s: %s", command, output).isZero();
        return output;
    }
}
