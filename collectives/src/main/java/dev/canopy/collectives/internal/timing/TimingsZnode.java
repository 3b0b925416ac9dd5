package dev.canopy.collectives.internal.timing;

import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.core.internal.membership.JobZnodes;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.internal.membership.ZnodeSeal;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where and how a member publishes its recent collectives' timings for the dashboards of its job:
 * {@code /canopy/jobs/<job>/timings/<member id>}, sealed under the job secret ({@link ZnodeSeal}: a MAC over the path
 * and the body, so a document is accepted only at its own member's path and only from a holder of the secret; the
 * job's ACLs keep everyone else from reading or writing it at all). A dashboard announces that it watches by an
 * ephemeral znode under {@code /canopy/jobs/<job>/dashboards}; members publish only while one is there.
 *
 * <p>Body: {@code {"member":"p2","rank":3,"operations":[{"context":1,"seq":7,"op":"bcast","root":0,"bytes":1024,
 * "epoch":5,"arrival_us":1795..,"completion_us":1795..,"failure":"..."}]}} with at most {@value OperationTimings#KEPT}
 * operations, oldest first; {@code completion_us} absent while the operation runs, {@code failure} absent unless it
 * failed. Times are the member's wall clock in microseconds since the epoch.
 */
public final class TimingsZnode {

    /** Key derivation label of the MAC (docs/security.md). */
    static final String MAC_LABEL = "canopy/collectives/timings/v1";
    /** {@value OperationTimings#KEPT} operations of about 200 characters each, with room to spare. */
    static final int MAX_BODY_CHARS = 32 * 1024;

    private final ZnodeSeal seal;

    public TimingsZnode(JobSecret secret) {
        this.seal = new ZnodeSeal(secret, MAC_LABEL, MAX_BODY_CHARS);
    }

    /** One member's published timings. */
    public record MemberTimings(String member, int rank, List<OperationTiming> operations) {

        public MemberTimings {
            operations = List.copyOf(operations);
        }
    }

    /** {@code /canopy/jobs/<job>/timings}. */
    public static String timingsPath(JobId job) {
        return JobZnodes.root(job) + "/timings";
    }

    /** The member's own znode. */
    public static String memberPath(JobId job, String member) {
        return timingsPath(job) + "/" + member;
    }

    /** {@code /canopy/jobs/<job>/dashboards}: one ephemeral child per dashboard watching the job. */
    public static String dashboardsPath(JobId job) {
        return JobZnodes.root(job) + "/dashboards";
    }

    /** The sealed content of {@code timings} at its member's path. */
    public byte[] encode(JobId job, MemberTimings timings) {
        return seal.seal(memberPath(job, timings.member()), body(timings));
    }

    /** The document, unsealed. */
    static String body(MemberTimings timings) {
        JsonArray operations = new JsonArray();
        for (OperationTiming timing : timings.operations()) {
            JsonObject json = new JsonObject()
                    .put("context", timing.contextId())
                    .put("seq", timing.sequence())
                    .put("op", timing.operation().displayName())
                    .put("root", timing.root())
                    .put("bytes", timing.bytes())
                    .put("epoch", timing.epoch())
                    .put("arrival_us", timing.arrivalMicros());
            timing.completionMicros().ifPresent(micros -> json.put("completion_us", micros));
            timing.failure().ifPresent(why -> json.put("failure", why));
            operations.add(json);
        }
        return new JsonObject().put("member", timings.member()).put("rank", timings.rank())
                .put("operations", operations).encode();
    }

    /**
     * The timings stored at {@code path}, checked field by field; empty when the MAC is wrong (not sealed with this
     * job's secret, or moved from another member's path).
     *
     * @throws MalformedZnodeException naming the znode and the field when the content is not such a document
     */
    public Optional<MemberTimings> decode(JobId job, String member, byte[] stored) {
        String path = memberPath(job, member);
        Optional<String> body = seal.open(path, stored);
        if (body.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(decodeBody(body.get().getBytes(StandardCharsets.UTF_8), path, member));
    }

    /** A document opened from its seal at {@code path}, the znode of {@code member}, checked field by field. */
    static MemberTimings decodeBody(byte[] body, String path, String member) {
        ZnodeJson json = ZnodeJson.parse(body, path);
        String named = json.name("member");
        if (!named.equals(member)) {
            throw new MalformedZnodeException(path, "names member \"" + named + "\", not " + member);
        }
        int rank = (int) json.integer("rank", 0, Integer.MAX_VALUE);
        JsonArray array = json.array("operations");
        if (array.size() > OperationTimings.KEPT) {
            throw new MalformedZnodeException(path, "has " + array.size() + " operations, more than the "
                    + OperationTimings.KEPT + " a member keeps");
        }
        List<OperationTiming> operations = new ArrayList<>(array.size());
        for (int at = 0; at < array.size(); at++) {
            operations.add(operation(ZnodeJson.of(array.getValue(at), path + " operations[" + at + "]")));
        }
        return new MemberTimings(member, rank, operations);
    }

    private static OperationTiming operation(ZnodeJson json) {
        String name = json.name("op");
        Operation operation;
        try {
            operation = Operation.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(json.where(), "field \"op\" is \"" + name + "\", not a collective operation");
        }
        long arrival = json.integer("arrival_us", 0, Long.MAX_VALUE);
        Optional<Long> completion = json.has("completion_us")
                ? Optional.of(json.integer("completion_us", 0, Long.MAX_VALUE)) : Optional.empty();
        Optional<String> failure = json.has("failure")
                ? Optional.of(json.text("failure", OperationTimings.MAX_FAILURE_CHARS)) : Optional.empty();
        return new OperationTiming((int) json.integer("context", 0, Integer.MAX_VALUE), json.integer("seq", 0, Long.MAX_VALUE),
                operation, (int) json.integer("root", 0, Integer.MAX_VALUE), json.integer("bytes", 0, Long.MAX_VALUE),
                json.integer("epoch", Long.MIN_VALUE, Long.MAX_VALUE), arrival, completion, failure);
    }
}
