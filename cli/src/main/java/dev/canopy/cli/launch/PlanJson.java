package dev.canopy.cli.launch;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/** Typed, checked reads of a launch plan's JSON fields: a missing or mistyped field is an error naming it. */
final class PlanJson {

    private PlanJson() {
    }

    static String string(JsonObject json, String field) {
        if (!(json.getValue(field) instanceof String text)) {
            throw new IllegalArgumentException("launch plan: \"" + field + "\" must be a string");
        }
        return text;
    }

    static Optional<String> optionalString(JsonObject json, String field) {
        return json.containsKey(field) ? Optional.of(string(json, field)) : Optional.empty();
    }

    static int integer(JsonObject json, String field) {
        if (!(json.getValue(field) instanceof Integer number)) {
            throw new IllegalArgumentException("launch plan: \"" + field + "\" must be an integer");
        }
        return number;
    }

    static boolean bool(JsonObject json, String field) {
        if (!(json.getValue(field) instanceof Boolean value)) {
            throw new IllegalArgumentException("launch plan: \"" + field + "\" must be true or false");
        }
        return value;
    }

    static JsonObject object(JsonObject json, String field) {
        if (!(json.getValue(field) instanceof JsonObject object)) {
            throw new IllegalArgumentException("launch plan: \"" + field + "\" must be an object");
        }
        return object;
    }

    static JsonArray array(JsonObject json, String field) {
        if (!(json.getValue(field) instanceof JsonArray array)) {
            throw new IllegalArgumentException("launch plan: \"" + field + "\" must be an array");
        }
        return array;
    }
}
