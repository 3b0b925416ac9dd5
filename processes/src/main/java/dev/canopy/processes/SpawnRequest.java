package dev.canopy.processes;

import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.internal.membership.ZnodeJson;
import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A parent root's request to one agent: start {@code processes} of job {@code job}, which runs on the grid of
 * {@code levelText} (a level file, RSL). The agent gives its children its own ZooKeeper and secret file: only a
 * holder of the job secret can write a request (the pool's znodes belong to the secret's ZooKeeper identity),
 * and the secret itself never travels. Decoding checks every field, and parses the level file.
 *
 * @param properties system properties for every child ({@link ChildBinding#properties()})
 */
public record SpawnRequest(JobId job, String levelText, List<Process> processes, boolean emulateWan,
        Map<String, String> properties) {

    /** One process to start: its index in the job and its program. */
    public record Process(int index, String program, List<String> arguments) {
        public Process {
            Objects.requireNonNull(program, "program");
            arguments = List.copyOf(arguments);
            if (index < 0) {
                throw new IllegalArgumentException("process index must be >= 0, got " + index);
            }
        }
    }

    /** A level file larger than this does not fit a znode comfortably. */
    static final int MAX_LEVEL_CHARS = 512 * 1024;

    public SpawnRequest {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(levelText, "levelText");
        processes = List.copyOf(processes);
        properties = ChildBinding.checkProperties(properties);
        if (processes.isEmpty()) {
            throw new IllegalArgumentException("a spawn request starts at least one process");
        }
    }

    public byte[] encode() {
        JsonArray encoded = new JsonArray();
        processes.forEach(process -> encoded.add(new JsonObject().put("process", process.index())
                .put("program", process.program()).put("arguments", new JsonArray(process.arguments()))));
        return new JsonObject().put("job", job.name()).put("level", levelText).put("processes", encoded)
                .put("emulateWan", emulateWan).put("properties", new JsonObject(new TreeMap<String, Object>(properties)))
                .encode().getBytes(StandardCharsets.UTF_8);
    }

    /** The request znode at {@code where}, every field checked. */
    public static SpawnRequest decode(byte[] data, String where) {
        ZnodeJson json = ZnodeJson.parse(data, where);
        JobId job;
        try {
            job = JobId.of(json.name("job"));
        } catch (IllegalArgumentException e) {
            throw new MalformedZnodeException(where, "field \"job\": " + e.getMessage());
        }
        if (!(json.json().getValue("level") instanceof String level) || level.length() > MAX_LEVEL_CHARS) {
            throw new MalformedZnodeException(where, "field \"level\" is not a level file of at most " + MAX_LEVEL_CHARS
                    + " characters");
        }
        ParseResult parsed = GridConfigs.parse(level, where + " .level");
        if (!parsed.isValid()) {
            throw new MalformedZnodeException(where, "field \"level\" is not a valid level file: " + parsed.formatted());
        }
        JsonArray given = json.array("processes");
        if (given.isEmpty() || given.size() > AgentZnodes.MAX_CHILDREN) {
            throw new MalformedZnodeException(where, "field \"processes\" has " + given.size() + " entries; 1 to "
                    + AgentZnodes.MAX_CHILDREN + " are allowed");
        }
        int count = parsed.orElseThrow().processCount();
        List<Process> processes = new ArrayList<>();
        for (int entry = 0; entry < given.size(); entry++) {
            processes.add(process(ZnodeJson.of(given.getValue(entry), where + " .processes[" + entry + "]"), count));
        }
        if (!(json.json().getValue("emulateWan") instanceof Boolean emulateWan)) {
            throw new MalformedZnodeException(where, "field \"emulateWan\" is not true or false");
        }
        return new SpawnRequest(job, level, processes, emulateWan, ChildBinding.properties(json, "properties"));
    }

    private static Process process(ZnodeJson json, int processCount) {
        int index = (int) json.integer("process", 0, processCount - 1);
        String program = json.name("program");
        JsonArray given = json.array("arguments");
        if (given.size() > ChildBinding.MAX_ARGUMENTS) {
            throw new MalformedZnodeException(json.where(), "field \"arguments\" has more than " + ChildBinding.MAX_ARGUMENTS
                    + " entries");
        }
        List<String> arguments = new ArrayList<>();
        for (int argument = 0; argument < given.size(); argument++) {
            arguments.add(ChildBinding.argument(json, "arguments[" + argument + "]", given.getValue(argument)));
        }
        return new Process(index, program, arguments);
    }
}
