package dev.canopy.collectives.internal.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeSeal;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The published timings: read back exactly, only under the job's secret, only at their member's path, checked. */
class TimingsZnodeTest {

    private static final JobId JOB = JobId.of("timed");
    private final JobSecret secret = JobSecret.generate();
    private final TimingsZnode znode = new TimingsZnode(secret);
    private final OperationTiming bcast = new OperationTiming(1, 4, Operation.BCAST, 0, 1024, -42, 1_700_000_000_000_000L,
            Optional.of(1_700_000_000_002_500L), Optional.empty());
    private final OperationTiming failed = new OperationTiming(1, 5, Operation.REDUCE_SCATTER, 0, 64, -42,
            1_700_000_000_010_000L, Optional.of(1_700_000_000_011_000L), Optional.of("rank 2 failed: it left the job"));
    private final OperationTiming running = new OperationTiming(3, 0, Operation.ALLGATHERV, 0, 8, 7, 1_700_000_000_020_000L,
            Optional.empty(), Optional.empty());

    @Test
    void whatAMemberPublishesIsReadBackExactly() {
        byte[] stored = znode.encode(JOB, new TimingsZnode.MemberTimings("p1", 3, List.of(bcast, failed, running)));

        TimingsZnode.MemberTimings read = znode.decode(JOB, "p1", stored).orElseThrow();

        assertThat(read).isEqualTo(new TimingsZnode.MemberTimings("p1", 3, List.of(bcast, failed, running)));
        assertThat(TimingsZnode.memberPath(JOB, "p1")).isEqualTo("/canopy/jobs/timed/timings/p1");
    }

    @Test
    void anotherSecretsOrAnotherMembersTimingsAreRefused() {
        byte[] stored = znode.encode(JOB, new TimingsZnode.MemberTimings("p1", 3, List.of(bcast)));

        assertThat(new TimingsZnode(JobSecret.generate()).decode(JOB, "p1", stored)).isEmpty();
        assertThat(znode.decode(JOB, "p2", stored)).as("p1's timings copied to p2's znode").isEmpty();
        assertThat(znode.decode(JobId.of("other"), "p1", stored)).as("another job's").isEmpty();
    }

    @Test
    void sealedContentThatIsNoTimingsDocumentIsMalformedNamingTheField() {
        JsonObject valid = new JsonObject(new String(znode.encode(JOB, new TimingsZnode.MemberTimings("p1", 3,
                List.of(bcast))), StandardCharsets.UTF_8));
        JsonObject body = new JsonObject(valid.getString("body"));

        assertMalformed(body.copy().put("member", "p2"), "names member \"p2\"");
        assertMalformed(body.copy().put("rank", -1), "\"rank\"");
        assertMalformed(body.copy().put("operations", new JsonArray(Collections.nCopies(OperationTimings.KEPT + 1,
                body.getJsonArray("operations").getJsonObject(0)))), "more than the 32");
        assertMalformed(withOperation(body, "op", "teleport"), "not a collective operation");
        assertMalformed(withOperation(body, "arrival_us", 1.5), "\"arrival_us\"");
        assertMalformed(withOperation(body, "failure", "two\nlines"), "\"failure\"");
        assertThatThrownBy(() -> znode.decode(JOB, "p1", "not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedZnodeException.class);
    }

    private void assertMalformed(JsonObject body, String problem) {
        String path = TimingsZnode.memberPath(JOB, "p1");
        byte[] sealed = new ZnodeSeal(secret, TimingsZnode.MAC_LABEL, TimingsZnode.MAX_BODY_CHARS).seal(path, body.encode());
        assertThatThrownBy(() -> znode.decode(JOB, "p1", sealed)).isInstanceOf(MalformedZnodeException.class)
                .hasMessageContaining(path).hasMessageContaining(problem);
    }

    private static JsonObject withOperation(JsonObject body, String field, Object value) {
        JsonObject copy = body.copy();
        copy.getJsonArray("operations").getJsonObject(0).put(field, value);
        return copy;
    }
}
