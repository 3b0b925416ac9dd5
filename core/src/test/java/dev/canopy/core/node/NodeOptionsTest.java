package dev.canopy.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.core.internal.frame.Frame;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.Coordinates;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class NodeOptionsTest {

    private static final Coordinates HERE = Coordinates.ofHost("h1");
    private static final JobSecret SECRET = JobSecret.generate();

    @Test
    void badSettingsAreRefusedNamingTheSettingAndTheFix() {
        assertThatThrownBy(() -> NodeOptions.of(JobId.of("j"), NodeId.of("n"), HERE, 0, "127.0.0.1:2181", SECRET))
                .hasMessageContaining("expected job size 0 must be at least 1");
        assertThatThrownBy(() -> NodeOptions.of(JobId.of("j"), NodeId.of("n"), HERE, 2, " ", SECRET))
                .hasMessageContaining("give host:port");
        NodeOptions options = NodeOptions.of(JobId.of("j"), NodeId.of("n"), HERE, 2, "127.0.0.1:2181", SECRET);
        assertThatThrownBy(() -> options.withSessionTimeout(Duration.ofMillis(200)))
                .hasMessageContaining("session timeout 200 ms is below the 1000 ms");
        assertThatThrownBy(() -> options.withBarrierTimeout(Duration.ZERO)).hasMessageContaining("must be positive");
        assertThatThrownBy(() -> options.withDepartureGrace(Duration.ofMillis(-1)))
                .hasMessageContaining("departure grace PT-0.001S must be 0 or more");
        assertThat(options.departureGrace()).isEqualTo(NodeOptions.DEFAULT_DEPARTURE_GRACE);
    }

    @Test
    void jobNamesAreSafeZnodeNamesAndKeyFramesLikeTheTransport() {
        assertThat(JobId.of("demo-1.x_y").frameKey()).isEqualTo(Frame.jobId("demo-1.x_y"));
        assertThatThrownBy(() -> JobId.of("a/b")).hasMessageContaining("job name 'a/b' must be 1 to 64 characters");
        assertThatThrownBy(() -> JobId.of("..")).hasMessageContaining("(and not . or ..)");
        assertThatThrownBy(() -> JobId.of("")).hasMessageContaining("job name ''");
    }
}
