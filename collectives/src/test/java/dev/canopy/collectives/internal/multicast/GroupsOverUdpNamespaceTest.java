package dev.canopy.collectives.internal.multicast;

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
 * The policy-managed groups over real IPv4 multicast: {@link GroupsOverUdpMain} in a network namespace this test
 * creates (prefix {@code canopy-mc-}, deleted afterwards), every group leased and bound at its leased address and
 * port, every policy's results compared with the reference. Needs root; skipped with the reason otherwise.
 */
class GroupsOverUdpNamespaceTest {

    @Test
    @Timeout(300)
    void everyPolicyOverRealMulticastEqualsTheReference() throws Exception {
        RootOnly.assumeAvailable(NetworkNamespaces.unavailableReason());
        NetworkNamespaces.removeStale();
        long seed = Long.getLong("canopy.seed", System.nanoTime());
        try (NetworkNamespaces namespaces = RootOnly.createOrSkip(() -> NetworkNamespaces.create(1))) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child = namespaces.exec(0, List.of(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                    GroupsOverUdpMain.class.getName(), NetworkNamespaces.addressOf(0), String.valueOf(seed)))
                    .redirectErrorStream(true).start();
            try {
                String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(child.waitFor(240, TimeUnit.SECONDS)).isTrue();
                String result = output.lines().filter(line -> line.startsWith("CHECKED") || line.startsWith("ERROR"))
                        .findFirst().orElse("no result line in:\n" + output);
                System.out.println("GroupsOverUdpNamespaceTest seed " + seed + ": " + result);
                // 4 policies x 3 sizes x 2 operations x 5 members, and 10 persistent starts x 5 members.
                assertThat(result).as(output).isEqualTo("CHECKED 170");
            } finally {
                child.destroyForcibly();
            }
        }
    }
}
