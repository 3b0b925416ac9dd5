package dev.canopy.cli.launch;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a host started by {@code canopy launch --hostfile} needs to run its part of the job, sent as one JSON line
 * on the standard input of its ssh session (never on a command line, where {@code ps} would show the secret):
 * the job, its secret and level file, the ZooKeeper (and the client side of its TLS directory, if any), the program
 * and its arguments, how to start Java and ssh there, the TLS files of the processes it and the hosts below it run,
 * and its place in the start-up tree ({@link HostTree}).
 */
record LaunchPlan(String job, String secretHex, String levelFile, String zooKeeper,
        Optional<ZooKeeperTlsFiles> zooKeeperTls, LaunchProgram program, Runtime runtime, SshClient ssh,
        Optional<Tls> tls, HostTree tree) {

    /** How a host starts a JVM: the java program, Canopy's class path there, and options for the nodes' JVMs. */
    record Runtime(String java, String canopyClasspath, List<String> javaOptions) {
        Runtime {
            javaOptions = List.copyOf(javaOptions);
        }
    }

    /** One process's TLS material, PEM text. */
    record TlsFiles(String certificate, String key, String ca) {
    }

    /** The TLS of the processes of a subtree, and the peer name they require if any. */
    record Tls(Optional<String> peerName, Map<Integer, TlsFiles> perProcess) {
        Tls {
            perProcess = Map.copyOf(perProcess);
        }
    }

    /** A plan line is at most this long: the level file (4 MiB at most) and TLS files. */
    static final int MAX_LINE_CHARS = 32 * 1024 * 1024;
    private static final Pattern HEX_SECRET = Pattern.compile("[0-9a-fA-F]{64}");
    private static final Pattern CONNECT_STRING = Pattern.compile("[A-Za-z0-9.:,_\\[\\]-]{1,4096}(/[A-Za-z0-9/_.-]*)?");

    LaunchPlan {
        if (!HEX_SECRET.matcher(secretHex).matches()) {
            throw new IllegalArgumentException("launch plan: the secret is not 64 hex digits");
        }
        if (!CONNECT_STRING.matcher(zooKeeper).matches()) {
            throw new IllegalArgumentException("launch plan: \"" + zooKeeper + "\" is not a ZooKeeper connect string");
        }
    }

    /** The plan of {@code child}, a host this one starts: its subtree, and only its processes' TLS keys. */
    LaunchPlan forChild(HostTree child) {
        Set<Integer> below = child.allProcesses().collect(Collectors.toSet());
        Optional<Tls> childTls = tls.map(all -> new Tls(all.peerName(), all.perProcess().entrySet().stream()
                .filter(entry -> below.contains(entry.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue))));
        return new LaunchPlan(job, secretHex, levelFile, zooKeeper, zooKeeperTls, program, runtime, ssh, childTls, child);
    }

    String toLine() {
        JsonObject json = new JsonObject().put("job", job).put("secret", secretHex).put("levelFile", levelFile)
                .put("zooKeeper", zooKeeper)
                .put("program", new JsonObject().put("class", program.className())
                        .put("arguments", new JsonArray(program.arguments())).put("livePlans", program.livePlans()))
                .put("runtime", new JsonObject().put("java", runtime.java()).put("classpath", runtime.canopyClasspath())
                        .put("javaOptions", new JsonArray(runtime.javaOptions())))
                .put("ssh", ssh.toJson()).put("tree", tree.toJson());
        program.classpath().ifPresent(classpath -> json.getJsonObject("program").put("classpath", classpath));
        zooKeeperTls.ifPresent(files -> json.put("zooKeeperTls", files.toJson()));
        tls.ifPresent(given -> {
            JsonObject files = new JsonObject();
            given.perProcess().forEach((process, pem) -> files.put(Integer.toString(process), new JsonObject()
                    .put("certificate", pem.certificate()).put("key", pem.key()).put("ca", pem.ca())));
            JsonObject tlsJson = new JsonObject().put("processes", files);
            given.peerName().ifPresent(name -> tlsJson.put("peerName", name));
            json.put("tls", tlsJson);
        });
        return json.encode();
    }

    /**
     * Reads a plan line; {@code processCount} is the level file's, checked by the caller.
     *
     * @throws IllegalArgumentException naming what is malformed
     */
    static LaunchPlan fromLine(String line, ToIntFunction<String> processCountOfLevelFile) {
        JsonObject json;
        try {
            json = new JsonObject(line);
        } catch (DecodeException e) {
            throw new IllegalArgumentException("launch plan: not a JSON object: " + e.getMessage());
        }
        String levelFile = PlanJson.string(json, "levelFile");
        int processCount = processCountOfLevelFile.applyAsInt(levelFile);
        JsonObject program = PlanJson.object(json, "program");
        JsonObject runtime = PlanJson.object(json, "runtime");
        Optional<Tls> tls = json.containsKey("tls") ? Optional.of(tls(PlanJson.object(json, "tls"), processCount))
                : Optional.empty();
        Optional<ZooKeeperTlsFiles> zooKeeperTls = json.containsKey("zooKeeperTls")
                ? Optional.of(ZooKeeperTlsFiles.fromJson(PlanJson.object(json, "zooKeeperTls"))) : Optional.empty();
        return new LaunchPlan(PlanJson.string(json, "job"), PlanJson.string(json, "secret"), levelFile,
                PlanJson.string(json, "zooKeeper"), zooKeeperTls,
                new LaunchProgram(PlanJson.string(program, "class"), PlanJson.optionalString(program, "classpath"),
                        strings(program, "arguments"), PlanJson.bool(program, "livePlans")),
                new Runtime(PlanJson.string(runtime, "java"), PlanJson.string(runtime, "classpath"),
                        strings(runtime, "javaOptions")),
                SshClient.fromJson(PlanJson.object(json, "ssh")), tls,
                HostTree.fromJson(PlanJson.object(json, "tree"), processCount));
    }

    private static Tls tls(JsonObject json, int processCount) {
        Map<Integer, TlsFiles> perProcess = new LinkedHashMap<>();
        JsonObject files = PlanJson.object(json, "processes");
        for (String name : files.fieldNames()) {
            int process;
            try {
                process = Integer.parseInt(name);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("launch plan: TLS files for \"" + name + "\", not a process index");
            }
            if (process < 0 || process >= processCount) {
                throw new IllegalArgumentException("launch plan: TLS files for process " + process + " of "
                        + processCount);
            }
            JsonObject pem = PlanJson.object(files, name);
            perProcess.put(process, new TlsFiles(PlanJson.string(pem, "certificate"), PlanJson.string(pem, "key"),
                    PlanJson.string(pem, "ca")));
        }
        return new Tls(PlanJson.optionalString(json, "peerName"), perProcess);
    }

    private static List<String> strings(JsonObject json, String field) {
        List<String> strings = new ArrayList<>();
        for (Object value : PlanJson.array(json, field)) {
            if (!(value instanceof String text)) {
                throw new IllegalArgumentException("launch plan: \"" + field + "\" must hold strings");
            }
            strings.add(text);
        }
        return strings;
    }
}
