package dev.canopy.cli.bench.namespaces;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.security.JobSecret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A member of a namespace job on loopback (one process, hosting the job's ZooKeeper): it joins and closes. */
class NamespaceMemberTest {

    @TempDir
    Path directory;

    @Test
    void aJoinedMemberCloses() throws Exception {
        Path config = directory.resolve("one.rsl");
        Files.writeString(config, "+\n( &(type = subjob) (label = \"lan\") (count = 1) )\n");
        Path secret = directory.resolve("job.key");
        JobSecret.generate().writeTo(secret);
        Map<String, String> environment = Map.of(JoinOptions.ENV_JOB, "namespace-member-close",
                JoinOptions.ENV_CONFIG, config.toString(), JoinOptions.ENV_SECRET_FILE, secret.toString(),
                JoinOptions.ENV_PROCESS, "0");

        NamespaceMember member = NamespaceMember.start(new String[] {"127.0.0.1", "true"}, environment);
        assertThat(member.arguments()).isEmpty();
        assertThat(Blocking.await(member.node().join()).size()).isEqualTo(1);

        // Vertx.close() used to be chained on the node's close, which a joined node completes on its event loop:
        // Vert.x then handed the close's completion to that loop after terminating it, and close() hung.
        CompletableFuture.runAsync(member::close).get(30, TimeUnit.SECONDS);
        assertThat(member.vertx().deploymentIDs()).isEmpty();
    }
}
