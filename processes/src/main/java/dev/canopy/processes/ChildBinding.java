package dev.canopy.processes;

import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZnodeJson;
import dev.canopy.core.node.JobId;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which program a started child runs, and as which process of which job: what its starter writes to the
 * child's standard input as one JSON line ({@link #encode()}); the child reads and checks it with
 * {@link #decode}. Paths name files on the child's host (the level file its starter wrote, the secret file
 * its starter was given); the secret itself never travels.
 *
 * @param zooKeeper the connect string, host:port,...
 * @param emulateWan whether the level file's WAN is emulated between the child job's processes
 */
public record ChildBinding(JobId job, int processIndex, Path levelFile, String zooKeeper, Path secretFile,
        String program, List<String> arguments, boolean emulateWan) {

    /** Longest program argument accepted, and most arguments. */
    static final int MAX_ARGUMENT_CHARS = 4096;
    static final int MAX_ARGUMENTS = 256;
    private static final int MAX_PATH_CHARS = 4096;

    public ChildBinding {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(levelFile, "levelFile");
        Objects.requireNonNull(zooKeeper, "zooKeeper");
        Objects.requireNonNull(secretFile, "secretFile");
        Objects.requireNonNull(program, "program");
        if (processIndex < 0) {
            throw new IllegalArgumentException("process index must be >= 0, got " + processIndex);
        }
        arguments = List.copyOf(arguments);
    }

    /** One line of JSON, without a line break. */
    public String encode() {
        return new JsonObject()
                .put("job", job.name())
                .put("process", processIndex)
                .put("levelFile", levelFile.toString())
                .put("zooKeeper", zooKeeper)
                .put("secretFile", secretFile.toString())
                .put("program", program)
                .put("arguments", new JsonArray(arguments))
                .put("emulateWan", emulateWan)
                .encode();
    }

    /**
     * The binding in {@code line}, every field checked.
     *
     * @throws dev.canopy.core.membership.MalformedZnodeException naming the field that is wrong
     */
    public static ChildBinding decode(String line) {
        ZnodeJson json = ZnodeJson.parse(line.getBytes(StandardCharsets.UTF_8), "the child's binding");
        JobId job;
        try {
            job = JobId.of(json.name("job"));
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(json.where(), "field \"job\": " + e.getMessage());
        }
        int process = (int) json.integer("process", 0, Integer.MAX_VALUE);
        Path levelFile = Path.of(json.text("levelFile", MAX_PATH_CHARS));
        String zooKeeper = json.text("zooKeeper", MAX_PATH_CHARS);
        Path secretFile = Path.of(json.text("secretFile", MAX_PATH_CHARS));
        String program = json.name("program");
        JsonArray given = json.array("arguments");
        if (given.size() > MAX_ARGUMENTS) {
            throw new MalformedZnodeException(json.where(),
                    "field \"arguments\" has " + given.size() + " entries; at most " + MAX_ARGUMENTS);
        }
        List<String> arguments = new ArrayList<>();
        for (int index = 0; index < given.size(); index++) {
            arguments.add(argument(json, index, given.getValue(index)));
        }
        Object emulate = json.json().getValue("emulateWan");
        if (!(emulate instanceof Boolean emulateWan)) {
            throw new MalformedZnodeException(json.where(), "field \"emulateWan\" is not true or false");
        }
        return new ChildBinding(job, process, levelFile, zooKeeper, secretFile, program, arguments, emulateWan);
    }

    /** A program argument: any text up to {@link #MAX_ARGUMENT_CHARS} characters, empty included. */
    private static String argument(ZnodeJson json, int index, Object value) {
        if (!(value instanceof String text) || text.length() > MAX_ARGUMENT_CHARS) {
            throw new MalformedZnodeException(json.where(), "field \"arguments[" + index + "]\" is "
                    + MalformedZnodeException.quote(value) + ", not a text of at most " + MAX_ARGUMENT_CHARS + " characters");
        }
        return text;
    }
}
