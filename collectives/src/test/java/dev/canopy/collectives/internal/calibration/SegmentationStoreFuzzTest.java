package dev.canopy.collectives.internal.calibration;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.internal.segmentation.EscalationRange;
import dev.canopy.collectives.internal.segmentation.SegmentationThresholds;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.testing.fuzz.DecoderFuzzContract;
import dev.canopy.core.testing.fuzz.FuzzCampaign;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Calibrated thresholds as ZooKeeper may hold them after a foreign or broken writer: seeded mutation
 * fuzzing ({@link FuzzCampaign}, JSON-aware) finds no error but {@link MalformedZnodeException}, and
 * what {@code canopy calibrate} stores round-trips.
 */
class SegmentationStoreFuzzTest extends DecoderFuzzContract {

    private static final String PATH = SegmentationStore.path("grid");

    @Test
    void aDocumentWithoutThresholdsOrWithBadOnesNamesTheZnode() {
        assertThatThrownBy(() -> SegmentationStore.decode("{}".getBytes(StandardCharsets.UTF_8), PATH))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining(PATH)
                .hasMessageContaining("field \"thresholds\" is missing");
        assertThatThrownBy(() -> SegmentationStore.decode("{\"thresholds\":{\"S\":-4}}".getBytes(StandardCharsets.UTF_8), PATH))
                .isInstanceOf(MalformedZnodeException.class).hasMessageContaining("S must be a positive byte count");
    }

    @Override
    protected Stream<FuzzCampaign<?>> campaigns() {
        return Stream.of(campaign());
    }

    private static FuzzCampaign<SegmentationThresholds> campaign() {
        return FuzzCampaign.of("SegmentationStore.decode", SegmentationStoreFuzzTest::randomThresholds,
                thresholds -> Buffer.buffer(new JsonObject().put("grid", "grid").put("thresholds", thresholds.toJson())
                        .encode()),
                bytes -> SegmentationStore.decode(bytes.getBytes(), PATH)).rejectingWith(MalformedZnodeException.class).json();
    }

    private static SegmentationThresholds randomThresholds(SplittableRandom random) {
        OptionalLong leap = random.nextBoolean() ? OptionalLong.of(random.nextLong(1, 1L << 40)) : OptionalLong.empty();
        long first = random.nextLong(1, 1L << 30);
        Optional<EscalationRange> range = random.nextBoolean()
                ? Optional.of(new EscalationRange(first, first + random.nextLong(1L << 30))) : Optional.empty();
        return new SegmentationThresholds(leap, range);
    }
}
