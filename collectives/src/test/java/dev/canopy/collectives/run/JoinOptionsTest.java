package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.emulation.WanEmulationLayer;
import dev.canopy.core.node.CanopyVertx;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.testing.Await;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.gridconfig.GridConfigs;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The environment {@code canopy launch} sets: live plans are off unless CANOPY_LIVE_PLANS=1, and a typo is an error. */
class JoinOptionsTest {

    @TempDir
    Path directory;

    @Test
    void livePlansAreOffByDefaultAndOnWithOne() throws Exception {
        assertThat(JoinOptions.fromEnvironment(environment()).livePlans()).isEmpty();
        assertThat(JoinOptions.fromEnvironment(with(JoinOptions.ENV_LIVE_PLANS, "0")).livePlans()).isEmpty();
        assertThat(JoinOptions.fromEnvironment(with(JoinOptions.ENV_LIVE_PLANS, "1")).livePlans())
                .contains(LivePlanSettings.DEFAULTS);
    }

    @Test
    void anotherValueNamesTheVariableAndTheChoices() throws Exception {
        assertThatThrownBy(() -> JoinOptions.fromEnvironment(with(JoinOptions.ENV_LIVE_PLANS, "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CANOPY_LIVE_PLANS=yes").hasMessageContaining("1 (follow live plans)");
    }

    @Test
    void theTransportSettingsReachTheNodeAndSurviveTheOtherChoices() throws Exception {
        TransportOptions everywhere = TransportOptions.defaults().withHost("0.0.0.0", "127.0.0.1");
        JoinOptions options = JoinOptions.fromEnvironment(environment()).withTransport(everywhere)
                .withLayers(below -> below).withLivePlans(LivePlanSettings.DEFAULTS);

        assertThat(options.nodeOptions().transport()).isEqualTo(everywhere);
        assertThat(JoinOptions.fromEnvironment(environment()).nodeOptions().transport())
                .isEqualTo(TransportOptions.defaults());
    }

    @Test
    void theLaunchersHostIsBoundAndAdvertised() throws Exception {
        assertThat(JoinOptions.fromEnvironment(with(JoinOptions.ENV_HOST, "10.0.0.2")).nodeOptions().transport())
                .isEqualTo(TransportOptions.defaults().withHost("10.0.0.2"));
    }

    @Test
    void theSecretComesFromItsFileAndAMissingOneIsNamed() throws Exception {
        Map<String, String> environment = environment();
        assertThat(JoinOptions.fromEnvironment(environment).secret().derive("x"))
                .isEqualTo(JobSecret.fromFile(Path.of(environment.get(JoinOptions.ENV_SECRET_FILE))).derive("x"));
        environment.remove(JoinOptions.ENV_SECRET_FILE);
        assertThatThrownBy(() -> JoinOptions.fromEnvironment(environment))
                .hasMessageContaining("CANOPY_SECRET_FILE is not set");
    }

    @Test
    void layersKeepTheLivePlanChoice() throws Exception {
        JoinOptions live = JoinOptions.fromEnvironment(with(JoinOptions.ENV_LIVE_PLANS, "1"));
        assertThat(live.withLayers(below -> below).livePlans()).contains(LivePlanSettings.DEFAULTS);
    }

    @Test
    void withoutCanopyProcessTheLaunchersRankIsTheIndex() throws Exception {
        Map<String, String> environment = environment();
        environment.remove(JoinOptions.ENV_PROCESS);
        environment.putAll(Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4"));
        assertThat(JoinOptions.fromEnvironment(environment).processIndex()).isEqualTo(2);

        environment.put("OMPI_COMM_WORLD_SIZE", "5");
        assertThatThrownBy(() -> JoinOptions.fromEnvironment(environment))
                .hasMessageStartingWith("OMPI_COMM_WORLD_SIZE=5 says the job has 5 processes, but the level file");
        environment.remove("OMPI_COMM_WORLD_SIZE");
        environment.remove("OMPI_COMM_WORLD_RANK");
        assertThatThrownBy(() -> JoinOptions.fromEnvironment(environment))
                .hasMessageStartingWith("CANOPY_PROCESS is not set, and no launcher variable (OMPI_COMM_WORLD_RANK,");
    }

    /** Options are values: making them (even with WAN emulation) starts no thread; the node's transport does. */
    @Test
    void parsingTheOptionsStartsNoThreadTheEmulatorStartsWithTheTransport() throws Exception {
        long before = emulatorThreads();
        JoinOptions options = JoinOptions.fromEnvironment(with(JoinOptions.ENV_EMULATE_WAN, "1"));
        options.nodeOptions();
        assertThat(emulatorThreads()).as("WAN emulator threads after parsing").isEqualTo(before);

        Vertx vertx = CanopyVertx.create();
        try {
            Transport real = Await.result(VertxTransport.start(vertx, TransportOptions.defaults(),
                    TransportSecurity.of(options.secret(), JobId.of("job"))));
            Transport emulated = options.layers().build(real);
            assertThat(emulated).isInstanceOf(WanEmulationLayer.class);
            assertThat(emulatorThreads()).as("one emulator thread once a transport is built").isEqualTo(before + 1);
            Await.result(real.close());
        } finally {
            Await.result(vertx.close());
        }
    }

    private static long emulatorThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("canopy-wan-emulator")).count();
    }

    private Map<String, String> with(String name, String value) throws Exception {
        Map<String, String> environment = environment();
        environment.put(name, value);
        return environment;
    }

    private Map<String, String> environment() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        Map<String, String> environment = new HashMap<>();
        environment.put(JoinOptions.ENV_JOB, "job");
        environment.put(JoinOptions.ENV_PROCESS, "1");
        environment.put(JoinOptions.ENV_CONFIG, config.toString());
        environment.put(JoinOptions.ENV_ZOOKEEPER, "127.0.0.1:2181");
        Path secret = directory.resolve("job.key");
        if (!Files.exists(secret)) {
            JobSecret.generate().writeTo(secret);
        }
        environment.put(JoinOptions.ENV_SECRET_FILE, secret.toString());
        return environment;
    }
}
