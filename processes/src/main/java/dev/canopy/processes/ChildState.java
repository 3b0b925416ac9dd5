package dev.canopy.processes;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What an agent reports about one child of a spawn request, in {@link AgentZnodes#status}: that it runs
 * (with its pid), that it ended (with why), or that the agent could not start it at all.
 *
 * @param process the child's index in its job, or -1 for a report about the whole request
 * @param detail for an ended or failed child: why, in words (exit status, last output)
 */
public record ChildState(int process, State state, long pid, String detail) {

    public enum State {
        RUNNING, EXITED, FAILED
    }

    /** The longest detail kept; longer ones are cut. */
    static final int MAX_DETAIL_CHARS = 4000;

    public ChildState {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(detail, "detail");
        if (detail.length() > MAX_DETAIL_CHARS) {
            detail = detail.substring(0, MAX_DETAIL_CHARS);
        }
    }

    public byte[] encode() {
        return new JsonObject().put("process", process).put("state", state.name()).put("pid", pid)
                .put("detail", detail.isEmpty() ? "-" : detail).encode().getBytes(StandardCharsets.UTF_8);
    }

    public static ChildState decode(byte[] data, String where) {
        ZnodeJson json = ZnodeJson.parse(data, where);
        String state = json.name("state");
        State parsed;
        try {
            parsed = State.valueOf(state);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(where, "field \"state\" is " + MalformedZnodeException.quote(state)
                    + ", not one of RUNNING, EXITED, FAILED");
        }
        String detail = json.json().getValue("detail") instanceof String text ? text : "";
        if (detail.length() > MAX_DETAIL_CHARS) {
            throw new MalformedZnodeException(where, "field \"detail\" is longer than " + MAX_DETAIL_CHARS + " characters");
        }
        return new ChildState((int) json.integer("process", -1, Integer.MAX_VALUE), parsed,
                json.integer("pid", 0, Long.MAX_VALUE), detail);
    }
}
