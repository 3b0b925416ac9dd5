package dev.canopy.processes;

import dev.canopy.core.membership.MalformedZnodeException;
import dev.canopy.core.membership.ZnodeJson;
import dev.canopy.core.node.JobId;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A parent root's request to one agent: start processes {@code processes} of job {@code job}, which runs on
 * the grid of {@code levelText} (a level file, RSL), each running {@code program arguments}. The agent gives
 * its children its own ZooKeeper and secret file (the level file is parsed and checked before use): only a holder of the job secret can write a request
 * (the pool's znodes belong to the secret's ZooKeeper identity), and the secret itself never travels.
 */
public record SpawnRequest(JobId job, String levelText, String program, List<String> arguments,
        List<Integer> processes, boolean emulateWan) {

    /** A level file larger than this does not fit a znode comfortably. */
    static final int MAX_LEVEL_CHARS = 512 * 1024;

    public SpawnRequest {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(levelText, "levelText");
        Objects.requireNonNull(program, "program");
        arguments = List.copyOf(arguments);
        processes = List.copyOf(processes);
        if (processes.isEmpty()) {
            throw new IllegalArgumentException("a spawn request starts at least one process");
        }
    }

    public byte[] encode() {
        return new JsonObject().put("job", job.name()).put("level", levelText).put("program", program)
                .put("arguments", new JsonArray(arguments)).put("processes", new JsonArray(processes))
                .put("emulateWan", emulateWan).encode().getBytes(StandardCharsets.UTF_8);
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
        String program = json.name("program");
        JsonArray givenArguments = json.array("arguments");
        if (givenArguments.size() > ChildBinding.MAX_ARGUMENTS) {
            throw new MalformedZnodeException(where, "field \"arguments\" has more than " + ChildBinding.MAX_ARGUMENTS + " entries");
        }
        List<String> arguments = new ArrayList<>();
        for (Object argument : givenArguments) {
            if (!(argument instanceof String text) || text.length() > ChildBinding.MAX_ARGUMENT_CHARS) {
                throw new MalformedZnodeException(where, "field \"arguments\" holds " + MalformedZnodeException.quote(argument)
                        + ", not a text of at most " + ChildBinding.MAX_ARGUMENT_CHARS + " characters");
            }
            arguments.add(text);
        }
        JsonArray givenProcesses = json.array("processes");
        if (givenProcesses.isEmpty() || givenProcesses.size() > AgentZnodes.MAX_CHILDREN) {
            throw new MalformedZnodeException(where, "field \"processes\" has " + givenProcesses.size()
                    + " entries; 1 to " + AgentZnodes.MAX_CHILDREN + " are allowed");
        }
        List<Integer> processes = new ArrayList<>();
        for (int index = 0; index < givenProcesses.size(); index++) {
            processes.add((int) json.nonNegative("processes[" + index + "]", givenProcesses.getValue(index)));
            if (!(givenProcesses.getValue(index) instanceof Integer)) {
                throw new MalformedZnodeException(where, "field \"processes[" + index + "]\" is not a process index");
            }
        }
        if (!(json.json().getValue("emulateWan") instanceof Boolean emulateWan)) {
            throw new MalformedZnodeException(where, "field \"emulateWan\" is not true or false");
        }
        return new SpawnRequest(job, level, program, arguments, processes, emulateWan);
    }
}
