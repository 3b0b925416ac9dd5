package dev.canopy.multicast.internal.fabric.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.testing.RootOnly;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Hosts with links shaped like switch ports (tbf + drop-tail pfifo), under a prefix of their own. */
class ShapedNamespacesTest {

    private static final String PREFIX = "canopy-ic-";

    /** As root: both ends of every link carry the token bucket and the FIFO; hosts reach each other; all gone after. */
    @Test
    @Timeout(120)
    void everyLinkIsShapedAndEverythingIsRemovedOnClose() throws Exception {
        RootOnly.assumeAvailable(NetworkNamespaces.unavailableReason());
        String host0;
        String bridge;
        try (NetworkNamespaces namespaces = NetworkNamespaces.create(PREFIX, 3, Optional.of(new LinkShape(200, 17)))) {
            host0 = namespaces.hostNamespace(0);
            bridge = host0.substring(0, host0.length() - "h0".length()) + "br";
            assertThat(host0).startsWith(PREFIX + ProcessHandle.current().pid() + "-");

            String hostSide = run("tc", "-n", host0, "qdisc", "show", "dev", "eth0");
            assertThat(hostSide).contains("qdisc tbf 1: root").contains("rate 200Mbit")
                    .contains("pfifo 10: parent 1:1 limit " + LinkShape.HOST_QUEUE_PACKETS + "p");
            String switchPort = run("tc", "-n", bridge, "qdisc", "show", "dev", "p2");
            assertThat(switchPort).contains("qdisc tbf 1: root").contains("rate 200Mbit")
                    .contains("pfifo 10: parent 1:1 limit 17p");
            assertThat(run("ip", "-n", bridge, "-d", "link", "show", "p2")).contains("gso_max_segs 1 ");

            String ping = run("ip", "netns", "exec", host0, "ping", "-c", "1", "-W", "5", NetworkNamespaces.addressOf(2));
            assertThat(ping).contains("1 received");
        }
        assertThat(run("ip", "netns", "list")).doesNotContain(host0).doesNotContain(bridge);
    }

    @Test
    void staleSweepsReadOnlyTheirOwnPrefix() {
        assertThat(NetworkNamespaces.ownerOf(PREFIX, "canopy-ic-4242-1-h3")).isEqualTo(OptionalLong.of(4242));
        assertThat(NetworkNamespaces.ownerOf(PREFIX, "canopy-mc-4242-1-h3")).isEmpty();
        assertThat(NetworkNamespaces.ownerOf("canopy-ic-4242-1-h3")).as("the multicast runs' sweep").isEmpty();
    }

    @Test
    void badShapesAndPrefixesAreRefusedWithTheRange() {
        assertThatThrownBy(() -> new LinkShape(0, 10)).hasMessageContaining("1 to 100000");
        assertThatThrownBy(() -> new LinkShape(1000, 0)).hasMessageContaining("queue of 0 packets");
        assertThatThrownBy(() -> NetworkNamespaces.create("Bad prefix", 2, Optional.empty()))
                .hasMessageContaining("namespace prefix 'Bad prefix'");
    }

    @Test
    void theBucketIsAboutATenthOfAMillisecondAtTheRateButAtLeastTwoPackets() {
        assertThat(new LinkShape(1000, 32).burstBytes()).isEqualTo(12_500);
        assertThat(new LinkShape(10, 32).burstBytes()).isEqualTo(2 * 1514);
        assertThat(new LinkShape(1000, 32).tcCommands("p0", 32).get(1)).containsSequence("pfifo", "limit", "32");
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("%s: %s", List.of(command), output).isZero();
        return output;
    }
}
