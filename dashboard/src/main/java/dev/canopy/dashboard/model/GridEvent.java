package dev.canopy.dashboard.model;

import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Objects;

/**
 * Something that happened to the job: a member joined, left or failed, or the plan leader published a new
 * plan (a re-plan, with its reason and the predicted gain over the plan it replaced).
 *
 * @param timeMs wall-clock time the dashboard saw it (ms since the epoch)
 * @param detail e.g. the re-plan's reason sentence, or why a member left
 * @param json the kind's own fields (member, rank, site, epoch, predicted_gain_ms ...)
 */
public record GridEvent(long sequence, long timeMs, Kind kind, String detail, JsonObject json) {

    public enum Kind {
        JOIN, LEAVE, FAILURE, REPLAN;

        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public GridEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        json = json.copy();
    }

    public JsonObject toJson() {
        return json.copy().put("seq", sequence).put("time_ms", timeMs).put("kind", kind.jsonName()).put("detail", detail);
    }
}
