package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class LaunchPlanTest {

    private static final String SECRET = "0123456789abcdef".repeat(4);

    private static LaunchPlan plan() {
        HostTree leaf = new HostTree("n3", List.of(2), List.of());
        HostTree root = new HostTree("n1", List.of(0, 1), List.of(leaf));
        LaunchPlan.Tls tls = new LaunchPlan.Tls(Optional.of("canopy-node"), Map.of(
                0, new LaunchPlan.TlsFiles("cert0", "key0", "ca"), 1, new LaunchPlan.TlsFiles("cert1", "key1", "ca"),
                2, new LaunchPlan.TlsFiles("cert2", "key2", "ca")));
        return new LaunchPlan("run-1", SECRET, "+\n( &(type = subjob) (count = 3) )\n", "10.0.0.1:2181",
                new LaunchPlan.Program("demo.Sums", Optional.of("/shared/demo"), List.of("--n", "3"), true),
                new LaunchPlan.Runtime("/usr/bin/java", "/shared/canopy.jar", List.of("-Xmx1g")),
                new SshClient("ssh", Optional.of("me"), OptionalInt.of(2222), List.of("-i", "/home/me/.ssh/key")),
                Optional.of(tls), root);
    }

    @Test
    void aPlanReadsBackAsItWasWritten() {
        LaunchPlan plan = plan();
        assertThat(LaunchPlan.fromLine(plan.toLine(), levelFile -> 3)).isEqualTo(plan);
        assertThat(plan.toLine()).doesNotContain("\n");
    }

    @Test
    void aChildGetsItsSubtreeAndOnlyTheKeysOfItsProcesses() {
        LaunchPlan child = plan().forChild(plan().tree().children().get(0));
        assertThat(child.tree().host()).isEqualTo("n3");
        assertThat(child.tls().orElseThrow().perProcess()).containsOnlyKeys(2);
        assertThat(child.toLine()).doesNotContain("key0").doesNotContain("key1").contains("key2");
    }

    @Test
    void aMalformedPlanIsRefusedNamingTheField() {
        JsonObject json = new JsonObject(plan().toLine());
        assertThatThrownBy(() -> LaunchPlan.fromLine("not json", text -> 3)).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> LaunchPlan.fromLine(json.copy().put("secret", "00").encode(), text -> 3))
                .hasMessageContaining("secret is not 64 hex digits");
        assertThatThrownBy(() -> LaunchPlan.fromLine(json.copy().put("zooKeeper", "a b").encode(), text -> 3))
                .hasMessageContaining("not a ZooKeeper connect string");
        assertThatThrownBy(() -> LaunchPlan.fromLine(json.copy().put("job", 7).encode(), text -> 3))
                .hasMessageContaining("\"job\" must be a string");
        assertThatThrownBy(() -> LaunchPlan.fromLine(plan().toLine(), text -> 2))
                .hasMessageContaining("TLS files for process 2 of 2");
    }
}
