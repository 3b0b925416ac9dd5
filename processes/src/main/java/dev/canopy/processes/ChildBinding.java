package dev.canopy.processes;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.node.JobId;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Which program a started child runs, and as which process of which job: what its starter writes to the
 * child's standard input as one JSON line ({@link #encode()}); the child reads and checks it with
 * {@link #decode}. Paths name files on the child's host (the level file its starter wrote, the secret file
 * its starter was given); the secret itself never travels.
 *
 * @param zooKeeper the connect string, host:port,...
 * @param emulateWan whether the level file's WAN is emulated between the child job's processes
 * @param properties system properties the entry sets before the program runs (a warm JVM cannot change its
 *        environment): only {@code canopy.*} names, e.g. where the child's parents wait for it
 */
public record ChildBinding(JobId job, int processIndex, Path levelFile, String zooKeeper, Path secretFile,
        String program, List<String> arguments, boolean emulateWan, Map<String, String> properties) {

    /** Longest program argument accepted, and most arguments. */
    static final int MAX_ARGUMENT_CHARS = 4096;
    static final int MAX_ARGUMENTS = 256;
    private static final int MAX_PATH_CHARS = 4096;
    private static final int MAX_PROPERTIES = 32;
    private static final Pattern PROPERTY_NAME = Pattern.compile("canopy\\.[A-Za-z0-9._-]{1,64}");

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
        properties = checkProperties(properties);
    }

    /**
     * {@code properties}, checked: at most {@value #MAX_PROPERTIES}, names {@code canopy.*}, values up to
     * {@link #MAX_ARGUMENT_CHARS} characters.
     *
     * @throws IllegalArgumentException naming the property that is wrong
     */
    static Map<String, String> checkProperties(Map<String, String> properties) {
        if (properties.size() > MAX_PROPERTIES) {
            throw new IllegalArgumentException(properties.size() + " system properties; at most " + MAX_PROPERTIES);
        }
        properties.forEach((name, value) -> {
            if (!PROPERTY_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("system property " + MalformedZnodeException.quote(name)
                        + " is not a canopy.* name of letters, digits and . _ -");
            }
            if (value.length() > MAX_ARGUMENT_CHARS) {
                throw new IllegalArgumentException("system property " + name + " is longer than " + MAX_ARGUMENT_CHARS
                        + " characters");
            }
        });
        return Map.copyOf(properties);
    }

    /** {@code given}, a JSON object of strings found at {@code where}, as checked properties. */
    static Map<String, String> properties(ZnodeJson json, String field) {
        ZnodeJson given = json.object(field);
        Map<String, String> properties = new TreeMap<>();
        for (String name : given.json().fieldNames()) {
            if (!(given.json().getValue(name) instanceof String value)) {
                throw new MalformedZnodeException(json.where(), "field \"" + field + "." + name + "\" is not a text");
            }
            properties.put(name, value);
        }
        try {
            return checkProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(json.where(), "field \"" + field + "\": " + e.getMessage());
        }
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
                .put("properties", new JsonObject(new TreeMap<String, Object>(properties)))
                .encode();
    }

    /**
     * The binding in {@code line}, every field checked.
     *
     * @throws dev.canopy.core.internal.membership.MalformedZnodeException naming the field that is wrong
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
            arguments.add(argument(json, "arguments[" + index + "]", given.getValue(index)));
        }
        Object emulate = json.json().getValue("emulateWan");
        if (!(emulate instanceof Boolean emulateWan)) {
            throw new MalformedZnodeException(json.where(), "field \"emulateWan\" is not true or false");
        }
        return new ChildBinding(job, process, levelFile, zooKeeper, secretFile, program, arguments, emulateWan,
                properties(json, "properties"));
    }

    /** A program argument: any text up to {@link #MAX_ARGUMENT_CHARS} characters, empty included. */
    static String argument(ZnodeJson json, String field, Object value) {
        if (!(value instanceof String text) || text.length() > MAX_ARGUMENT_CHARS) {
            throw new MalformedZnodeException(json.where(), "field \"" + field + "\" is "
                    + MalformedZnodeException.quote(value) + ", not a text of at most " + MAX_ARGUMENT_CHARS + " characters");
        }
        return text;
    }
}
