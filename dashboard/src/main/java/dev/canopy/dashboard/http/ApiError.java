package dev.canopy.dashboard.http;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** A request the dashboard refuses: answered as JSON {@code {"error":..,"status":..}} with a 4xx status. */
final class ApiError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    ApiError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }

    static void send(RoutingContext context, int status, String message) {
        if (context.response().ended() || context.response().headWritten()) {
            return;
        }
        context.response().setStatusCode(status).putHeader("content-type", "application/json; charset=utf-8")
                .end(new JsonObject().put("error", message).put("status", status).encode());
    }
}
