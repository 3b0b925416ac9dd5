package dev.canopy.dashboard.record;

import io.vertx.core.json.JsonObject;

/**
 * One collective as every member of the communicator ran it, with its skew report.
 *
 * @param completionMs when the last rank completed, relative to the root's start
 * @param json the operation as {@code /api/collectives} shows it
 */
public record CompletedOperation(String communicator, String operation, String algorithm, String level, long bytes,
        double completionMs, boolean succeeded, JsonObject json) {
}
