package dev.canopy.cli.launch;

import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.gridconfig.model.Subjob;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A host of the job, the processes (level-file indices) it runs, and the hosts it starts over ssh once it runs:
 * the start-up tree. With a fan-out of {@code k} the launcher starts the first {@code k} hosts and host {@code i}
 * starts hosts {@code k(i+1)} to {@code k(i+1)+k-1}, so {@code n} hosts are all running after about
 * {@code log_k(n)} rounds of ssh instead of {@code n} from one machine (as Open MPI's tree spawn).
 */
record HostTree(String host, List<Integer> processes, List<HostTree> children) {

    /** Bounds a plan read from the wire: a deeper tree than this is not one this launcher built. */
    private static final int MAX_DEPTH = 64;

    HostTree {
        SshClient.requireHost(host);
        processes = List.copyOf(processes);
        children = List.copyOf(children);
    }

    /**
     * The trees the launcher starts for {@code grid}: one node per distinct host, in order of the host's first
     * process, each with its processes.
     */
    static List<HostTree> of(GridModel grid, int fanout) {
        Map<String, Subjob> subjobs = new LinkedHashMap<>();
        grid.subjobs().forEach(subjob -> subjobs.put(subjob.label(), subjob));
        Map<String, List<Integer>> hosts = new LinkedHashMap<>();
        for (ProcessPlacement process : grid.processes()) {
            String host = subjobs.get(process.subjobLabel()).hostOf(process.indexInSubjob());
            hosts.computeIfAbsent(host, name -> new ArrayList<>()).add(process.globalIndex());
        }
        List<String> names = new ArrayList<>(hosts.keySet());
        List<HostTree> roots = new ArrayList<>();
        for (int i = 0; i < Math.min(fanout, names.size()); i++) {
            roots.add(build(i, names, hosts, fanout));
        }
        return roots;
    }

    private static HostTree build(int i, List<String> names, Map<String, List<Integer>> hosts, int fanout) {
        List<HostTree> children = new ArrayList<>();
        for (int child = fanout * (i + 1); child < Math.min(names.size(), fanout * (i + 2)); child++) {
            children.add(build(child, names, hosts, fanout));
        }
        return new HostTree(names.get(i), hosts.get(names.get(i)), children);
    }

    /** This host's processes and those of every host below it. */
    Stream<Integer> allProcesses() {
        return Stream.concat(processes.stream(), children.stream().flatMap(HostTree::allProcesses));
    }

    /** This host and every host below it. */
    Stream<String> allHosts() {
        return Stream.concat(Stream.of(host), children.stream().flatMap(HostTree::allHosts));
    }

    JsonObject toJson() {
        return new JsonObject().put("host", host).put("processes", new JsonArray(new ArrayList<>(processes)))
                .put("children", new JsonArray(children.stream().map(HostTree::toJson).toList()));
    }

    /** @throws IllegalArgumentException when the tree is malformed, deeper than {@value #MAX_DEPTH}, or names a process not below {@code processCount} */
    static HostTree fromJson(JsonObject json, int processCount) {
        return fromJson(json, processCount, 0);
    }

    private static HostTree fromJson(JsonObject json, int processCount, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("launch plan: the host tree is deeper than " + MAX_DEPTH);
        }
        List<Integer> processes = new ArrayList<>();
        for (Object process : PlanJson.array(json, "processes")) {
            if (!(process instanceof Integer index) || index < 0 || index >= processCount) {
                throw new IllegalArgumentException("launch plan: process " + process + " is not an index below "
                        + processCount);
            }
            processes.add(index);
        }
        List<HostTree> children = new ArrayList<>();
        for (Object child : PlanJson.array(json, "children")) {
            if (!(child instanceof JsonObject object)) {
                throw new IllegalArgumentException("launch plan: a child host must be an object");
            }
            children.add(fromJson(object, processCount, depth + 1));
        }
        return new HostTree(PlanJson.string(json, "host"), processes, children);
    }
}
