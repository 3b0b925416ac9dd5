package dev.canopy.dynamic.spawn;

import dev.canopy.dynamic.StepLog;
import io.vertx.core.json.JsonObject;
import java.util.Locale;

/**
 * Where the time of one spawn went, at the parent root, in milliseconds since {@code spawn} was called: the port
 * open, the requests written to the agents (and the root's ZooKeeper client, on the first spawn), every child
 * joined its job and the children's root connected at the port (the roots agreed the pairing's key), the parents
 * heard it (the group's broadcast of the key), and the inter-communicator exists at the root (the exchange with the
 * children). Each is cumulative.
 */
public record SpawnTimeline(double portMs, double requestedMs, double joinedMs, double toldMs, double acceptedMs) {

    /** From a spawn's steps at the root (its own and its pairing's). */
    static SpawnTimeline of(StepLog steps) {
        return new SpawnTimeline(at(steps, DynamicSpawn.PORT), at(steps, DynamicSpawn.REQUESTED), at(steps, StepLog.KEY_AGREED),
                at(steps, StepLog.KEY_SHARED), at(steps, DynamicSpawn.ACCEPTED));
    }

    private static double at(StepLog steps, String step) {
        return steps.millis(step).orElseThrow(() -> new IllegalStateException("the spawn's step " + step + " was not marked"));
    }

    /** The phases by name, each the time since the previous one. */
    public JsonObject phasesJson() {
        return new JsonObject().put("port", portMs).put("request", requestedMs - portMs)
                .put("children_join", joinedMs - requestedMs).put("tell_parents", toldMs - joinedMs)
                .put("accept", acceptedMs - toldMs);
    }

    /** The mean of each phase over {@code timelines}. */
    public static SpawnTimeline mean(java.util.List<SpawnTimeline> timelines) {
        int n = Math.max(1, timelines.size());
        return new SpawnTimeline(timelines.stream().mapToDouble(SpawnTimeline::portMs).sum() / n,
                timelines.stream().mapToDouble(SpawnTimeline::requestedMs).sum() / n,
                timelines.stream().mapToDouble(SpawnTimeline::joinedMs).sum() / n,
                timelines.stream().mapToDouble(SpawnTimeline::toldMs).sum() / n,
                timelines.stream().mapToDouble(SpawnTimeline::acceptedMs).sum() / n);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "port %.0f ms, request %.0f ms, children join %.0f ms, tell parents %.0f ms,"
                + " accept %.0f ms (total %.0f ms)", portMs, requestedMs - portMs, joinedMs - requestedMs,
                toldMs - joinedMs, acceptedMs - toldMs, acceptedMs);
    }
}
