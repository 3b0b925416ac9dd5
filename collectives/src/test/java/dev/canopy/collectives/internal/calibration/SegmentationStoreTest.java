package dev.canopy.collectives.internal.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The segmentation document: the thresholds under {@code "thresholds"} beside what {@code canopy calibrate} adds
 * (bad documents: {@link SegmentationStoreFuzzTest}; how it is sealed in ZooKeeper: {@link SealedDocumentStoreTest}).
 */
class SegmentationStoreTest {

    @Test
    void theThresholdsAreReadBesideWhateverCalibrateStores() {
        JsonObject thresholds = new JsonObject().put("S", 4096).put("M1", 1024).put("M2", 8192);
        JsonObject document = new JsonObject().put("grid", "g").put("thresholds", thresholds)
                .put("curves", new JsonArray().add(new JsonObject().put("size", 1024).put("ms", 0.4)));
        String path = SegmentationStore.path("g");

        assertThat(path).isEqualTo("/canopy/config/g/segmentation");
        assertThat(SegmentationStore.decode(document.encode().getBytes(StandardCharsets.UTF_8), path))
                .isEqualTo(SegmentationThresholds.fromJson(thresholds));
    }
}
