package dev.canopy.collectives.internal.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.tree.LogGpParameters;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The LogGP document: the parameters under {@code "loggp"}, checked before use. How it is sealed in ZooKeeper is
 * {@link SealedDocumentStoreTest}'s.
 */
class LogGpStoreTest {

    private static final LogGpParameters MEASURED = new LogGpParameters(0.031, 0.012, 2.5e-6,
            Map.of(Level.HEAVY_WAN, 20.4, Level.HOST, 0.08));

    private static JsonObject document(LogGpParameters parameters) {
        return new JsonObject().put("loggp", LogGpStore.toJson(parameters)).put("measurements", new JsonObject());
    }

    @Test
    void theParametersRoundTripBesideWhateverTheCallerAdds() {
        String path = LogGpStore.path("g");
        assertThat(path).isEqualTo("/canopy/config/g/loggp");
        assertThat(LogGpStore.decode(document(MEASURED).encode().getBytes(StandardCharsets.UTF_8), path)).isEqualTo(MEASURED);
    }

    @Test
    void badValuesAreRefusedNamingTheZnode() {
        String path = LogGpStore.path("g");
        JsonObject negative = document(MEASURED);
        negative.getJsonObject("loggp").put("overhead_ms", -1);
        JsonObject noLevel = document(MEASURED);
        noLevel.getJsonObject("loggp").getJsonObject("latency_ms").put("continent", 3);
        JsonObject missing = document(MEASURED);
        missing.getJsonObject("loggp").remove("per_byte_ms");
        JsonObject absurd = document(MEASURED);
        absurd.getJsonObject("loggp").put("per_byte_ms", 5);

        for (JsonObject bad : List.of(negative, noLevel, missing, absurd, new JsonObject())) {
            assertThatThrownBy(() -> LogGpStore.decode(bad.encode().getBytes(StandardCharsets.UTF_8), path))
                    .as(bad.encode()).isInstanceOf(MalformedZnodeException.class).hasMessageContaining(path);
        }
    }
}
