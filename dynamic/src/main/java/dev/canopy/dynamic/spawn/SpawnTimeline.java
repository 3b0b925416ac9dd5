package dev.canopy.dynamic.spawn;

import io.vertx.core.json.JsonObject;
import java.util.Locale;

/**
 * Where the time of one spawn went, at the parent root, in milliseconds since {@code spawn} was called: the port
 * open (and the root's ZooKeeper client, on the first spawn), the requests written to the agents, every child
 * joined its job (the child job's start record lists all), the parents heard the outcome (the group's broadcast),
 * and the inter-communicator exists at the root (the exchange with the children). Each is cumulative.
 */
public record SpawnTimeline(double portMs, double requestedMs, double joinedMs, double toldMs, double acceptedMs) {

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
