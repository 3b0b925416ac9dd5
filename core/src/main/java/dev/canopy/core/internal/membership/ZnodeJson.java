package dev.canopy.core.internal.membership;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Reads the fields of a JSON object from a znode, each checked for presence, type and range, and
 * throws {@link MalformedZnodeException} naming the znode and the field otherwise. Vert.x's own
 * getters do not suffice: {@code getInteger} truncates a long silently, and a missing field is a
 * null that fails far from the znode.
 */
public final class ZnodeJson {

    /** The longest name (coordinate, host, member, site) accepted. */
    public static final int MAX_NAME_CHARS = 255;

    private final JsonObject json;
    private final String where;

    private ZnodeJson(JsonObject json, String where) {
        this.json = json;
        this.where = where;
    }

    /** Parses a znode's data, which must be a JSON object. */
    public static ZnodeJson parse(byte[] data, String where) {
        if (data == null || data.length == 0) {
            throw new MalformedZnodeException(where, "is empty");
        }
        try {
            return new ZnodeJson(new JsonObject(Buffer.buffer(data)), where);
        } catch (DecodeException | ClassCastException e) {
            throw new MalformedZnodeException(where, "is not a JSON object: " + MalformedZnodeException.quote(e.getMessage()));
        }
    }

    /** The object {@code value} found in this znode at {@code path} (e.g. {@code members[3]}). */
    public static ZnodeJson of(Object value, String where) {
        if (!(value instanceof JsonObject object)) {
            throw new MalformedZnodeException(where, "holds " + MalformedZnodeException.quote(value) + ", not a JSON object");
        }
        return new ZnodeJson(object, where);
    }

    public String where() {
        return where;
    }

    /** The object itself, for a reader with checks of its own. */
    public JsonObject json() {
        return json;
    }

    public boolean has(String field) {
        return json.containsKey(field);
    }

    /** A nested object. */
    public ZnodeJson object(String field) {
        return of(required(field), where + " ." + field);
    }

    public JsonArray array(String field) {
        if (!(required(field) instanceof JsonArray array)) {
            throw bad(field, "is not an array");
        }
        return array;
    }

    /** A string of 1 to {@code maxChars} characters without control characters. */
    public String text(String field, int maxChars) {
        return text(field, required(field), maxChars);
    }

    /** A name: 1 to {@value #MAX_NAME_CHARS} characters without control characters. */
    public String name(String field) {
        return text(field, MAX_NAME_CHARS);
    }

    /** An integer in {@code min..max} (a fraction or a value beyond a long is malformed, not rounded). */
    public long integer(String field, long min, long max) {
        Object value = required(field);
        if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < min
                || ((Number) value).longValue() > max) {
            throw bad(field, "is " + MalformedZnodeException.quote(value) + ", not an integer in " + min + ".." + max);
        }
        return ((Number) value).longValue();
    }

    /** A finite number >= 0. */
    public double nonNegative(String field) {
        Object value = required(field);
        return nonNegative(field, value);
    }

    /** A finite number >= 0 found in this znode as {@code what}. */
    public double nonNegative(String what, Object value) {
        if (!(value instanceof Number number) || !(number.doubleValue() >= 0) || Double.isInfinite(number.doubleValue())) {
            throw bad(what, "is " + MalformedZnodeException.quote(value) + ", not a finite number >= 0");
        }
        return number.doubleValue();
    }

    /** A string found in this znode as {@code what}, checked like {@link #text(String, int)}. */
    public String text(String what, Object value, int maxChars) {
        if (!(value instanceof String text) || text.isEmpty() || text.length() > maxChars
                || text.chars().anyMatch(Character::isISOControl)) {
            throw bad(what, "is " + MalformedZnodeException.quote(value) + ", not a text of 1 to " + maxChars
                    + " characters without control characters");
        }
        return text;
    }

    private Object required(String field) {
        Object value = json.getValue(field);
        if (value == null) {
            throw bad(field, "is missing");
        }
        return value;
    }

    private MalformedZnodeException bad(String field, String problem) {
        return new MalformedZnodeException(where, "field \"" + field + "\" " + problem);
    }
}
