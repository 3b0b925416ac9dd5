package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.cli.collectives.ArgumentsProgram;
import dev.canopy.cli.collectives.ZooKeeperTlsKeys;
import dev.canopy.core.security.tls.ZooKeeperTls;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchPlanTest {

    @TempDir
    Path directory;

    private static final String SECRET = "0123456789abcdef".repeat(4);
    private static final ZooKeeperTlsFiles ZOOKEEPER_TLS = ZooKeeperTlsFiles.fromJson(new JsonObject()
            .put("ca.p12", Base64.getEncoder().encodeToString(new byte[] {0, 1, 2, (byte) 0xff}))
            .put("password", Base64.getEncoder().encodeToString("secret\n".getBytes(StandardCharsets.US_ASCII))));

    private static LaunchPlan plan() {
        HostTree leaf = new HostTree("n3", List.of(2), List.of());
        HostTree root = new HostTree("n1", List.of(0, 1), List.of(leaf));
        LaunchPlan.Tls tls = new LaunchPlan.Tls(Optional.of("canopy-node"), Map.of(
                0, new LaunchPlan.TlsFiles("cert0", "key0", "ca"), 1, new LaunchPlan.TlsFiles("cert1", "key1", "ca"),
                2, new LaunchPlan.TlsFiles("cert2", "key2", "ca")));
        return new LaunchPlan("run-1", SECRET, "+\n( &(type = subjob) (count = 3) )\n", "10.0.0.1:2281",
                Optional.of(ZOOKEEPER_TLS), new LaunchProgram("demo.Sums", Optional.of("/shared/demo"), ArgumentsProgram.AWKWARD_ARGUMENTS, true),
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
    void theProgramsArgumentsAndTheZooKeeperTlsFilesReachEveryHostAsGiven() {
        LaunchPlan child = LaunchPlan.fromLine(plan().forChild(plan().tree().children().get(0)).toLine(), levelFile -> 3);
        assertThat(child.program().arguments()).containsExactlyElementsOf(ArgumentsProgram.AWKWARD_ARGUMENTS);
        assertThat(child.zooKeeperTls()).contains(ZOOKEEPER_TLS);
        assertThat(child.zooKeeperTls().orElseThrow().names()).containsExactly("ca.p12", "password");
    }

    @Test
    void aNodeGetsTheArgumentsInAPrivateUtf8FileAndTheZooKeeperTlsDirectory() throws Exception {
        Path arguments = ProgramArgumentsFile.write(plan().program().arguments(), directory.resolve("arguments.json"));
        AgentNodes.Files files = new AgentNodes.Files(Path.of("/tmp/d/grid.rsl"), Path.of("/tmp/d/job.key"), arguments,
                Optional.empty(), Optional.of(Path.of("/tmp/d/zk-tls")));
        List<String> command = AgentNodes.command(plan(), 1, "10.0.0.2", files);
        assertThat(command).containsSequence("--zk-tls", "/tmp/d/zk-tls").containsSequence("--arguments-file",
                arguments.toString()).doesNotContain("--", "two words");
        assertThat(ProgramArgumentsFile.read(arguments)).containsExactlyElementsOf(ArgumentsProgram.AWKWARD_ARGUMENTS);
        assertThat(Files.getPosixFilePermissions(arguments)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(ProgramEnvironment.of(plan(), 1, "10.0.0.2", files)).containsEntry("CANOPY_PROCESS", "1")
                .containsEntry("CANOPY_HOST", "10.0.0.2").containsEntry("CANOPY_ZK", "10.0.0.1:2281")
                .containsEntry("CANOPY_ZK_TLS", "/tmp/d/zk-tls").containsEntry("CANOPY_SECRET_FILE", "/tmp/d/job.key")
                .containsEntry("CANOPY_LIVE_PLANS", "1").doesNotContainValue(SECRET);
    }

    @Test
    void anArgumentsFileThatIsNotAnArrayOfStringsIsRefusedNamingIt() throws Exception {
        Path numbers = Files.writeString(directory.resolve("numbers.json"), "[\"a\", 7]");
        Path object = Files.writeString(directory.resolve("object.json"), "{}");
        assertThatThrownBy(() -> ProgramArgumentsFile.read(numbers))
                .hasMessageContaining("--arguments-file " + numbers + " must hold strings only, found 7");
        assertThatThrownBy(() -> ProgramArgumentsFile.read(object))
                .hasMessageContaining("--arguments-file " + object + " is not a JSON array");
    }

    @Test
    void theHostsGetTheZooKeeperTlsClientFilesNeverTheServersKeyAndCheckThemPrivately() throws Exception {
        ZooKeeperTls given = ZooKeeperTls.fromDirectory(ZooKeeperTlsKeys.create(directory.resolve("given"), "ip:10.1.0.1"));
        ZooKeeperTlsFiles files = ZooKeeperTlsFiles.of(given);
        assertThat(files.names()).containsExactly("ca.p12", "password");
        ZooKeeperTlsFiles received = ZooKeeperTlsFiles.fromJson(new JsonObject(files.toJson().encode()));
        Path written = received.writeTo(Files.createDirectory(directory.resolve("host")).resolve("zk-tls"));
        assertThat(ZooKeeperTls.fromDirectory(written).hasServerKey()).isFalse();
        assertThat(Files.readAllBytes(written.resolve("ca.p12"))).isEqualTo(Files.readAllBytes(
                given.directory().resolve("ca.p12")));
        assertThat(Files.getPosixFilePermissions(written.resolve("password")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aZooKeeperTlsFileNamedLikeAPathOrTheServersKeyIsRefused() {
        for (String name : List.of("../.ssh/authorized_keys", "server.pem", "server.p12", "/etc/passwd")) {
            assertThatThrownBy(() -> ZooKeeperTlsFiles.fromJson(new JsonObject().put(name, "AAAA")))
                    .hasMessageContaining("\"" + name + "\" is not a ZooKeeper TLS client file");
        }
        assertThatThrownBy(() -> ZooKeeperTlsFiles.fromJson(new JsonObject().put("ca.pem", "not base64!")))
                .hasMessageContaining("ZooKeeper TLS file ca.pem is not base64");
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
