package dev.canopy.gridconfig.internal.hosts;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.model.GridModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The hosts of a Slurm job or job step and their tasks, from the variables Slurm sets in a batch script
 * or a step: the node list {@code SLURM_STEP_NODELIST} (inside {@code srun}) or {@code SLURM_JOB_NODELIST},
 * with {@code SLURM_STEP_TASKS_PER_NODE} or {@code SLURM_TASKS_PER_NODE} ({@code 2(x3),1}: two tasks on
 * each of the first three nodes, one on the fourth), in the node list's order, which is the order in which
 * Slurm's default block distribution hands out ranks. Without a tasks-per-node variable every node takes one.
 */
public final class SlurmHosts {

    public static final String STEP_NODELIST = "SLURM_STEP_NODELIST";
    public static final String JOB_NODELIST = "SLURM_JOB_NODELIST";
    public static final String STEP_TASKS_PER_NODE = "SLURM_STEP_TASKS_PER_NODE";
    public static final String TASKS_PER_NODE = "SLURM_TASKS_PER_NODE";

    private SlurmHosts() {
    }

    /** The hosts the environment's Slurm variables describe (the step's when inside a step, else the job's). */
    public static HostList fromEnvironment(Map<String, String> environment) {
        boolean step = environment.containsKey(STEP_NODELIST);
        String listVariable = step ? STEP_NODELIST : JOB_NODELIST;
        String list = environment.get(listVariable);
        if (list == null) {
            return invalid(JOB_NODELIST, "neither " + STEP_NODELIST + " nor " + JOB_NODELIST + " is set: run this inside a"
                    + " Slurm job (sbatch, salloc, srun), or give the node list and the tasks per node yourself");
        }
        String tasksVariable = step && environment.containsKey(STEP_TASKS_PER_NODE) ? STEP_TASKS_PER_NODE : TASKS_PER_NODE;
        return of(listVariable, list, tasksVariable, Optional.ofNullable(environment.get(tasksVariable)));
    }

    /**
     * The hosts of {@code nodelist} with {@code tasksPerNode} (one each when empty); {@code listSource} and
     * {@code tasksSource} name where the two came from in messages.
     */
    public static HostList of(String listSource, String nodelist, String tasksSource, Optional<String> tasksPerNode) {
        SlurmNodelist.Expansion names = SlurmNodelist.expand(nodelist);
        if (names.problem().isPresent()) {
            return invalid(listSource, names.problem().get());
        }
        List<Integer> tasks;
        if (tasksPerNode.isPresent()) {
            tasks = new ArrayList<>();
            Optional<String> problem = tasks(tasksPerNode.get(), names.names().size(), tasks);
            if (problem.isPresent()) {
                return invalid(tasksSource, tasksSource + "=" + Excerpt.quoted(tasksPerNode.get()) + ": " + problem.get());
            }
            if (tasks.size() != names.names().size()) {
                return invalid(tasksSource, tasksSource + "=" + Excerpt.quoted(tasksPerNode.get()) + " gives tasks for "
                        + tasks.size() + " nodes, but " + listSource + " lists " + names.names().size());
            }
        } else {
            tasks = names.names().stream().map(name -> 1).toList();
        }
        List<LaunchHost> hosts = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        long total = 0;
        for (int i = 0; i < names.names().size(); i++) {
            String name = names.names().get(i);
            if (!seen.add(name)) {
                return invalid(listSource, "node " + name + " is listed twice in " + listSource);
            }
            total += tasks.get(i);
            if (total > GridModel.MAX_PROCESSES) {
                return invalid(tasksSource, "the nodes have more than " + GridModel.MAX_PROCESSES + " tasks");
            }
            hosts.add(new LaunchHost(name, tasks.get(i), 0));
        }
        return new HostList(listSource, hosts, List.of());
    }

    /** Reads {@code 2(x3),1} into {@code into}, refusing more than {@code nodes} nodes' worth early. */
    private static Optional<String> tasks(String text, int nodes, List<Integer> into) {
        for (String item : text.strip().split(",", -1)) {
            int paren = item.indexOf('(');
            String count = paren < 0 ? item : item.substring(0, paren);
            String repeat = "1";
            if (paren >= 0) {
                if (!item.endsWith(")") || !item.startsWith("(x", paren)) {
                    return Optional.of(Excerpt.quoted(item) + " is not N or N(xM), e.g. 2(x3) for two tasks on each of"
                            + " three nodes");
                }
                repeat = item.substring(paren + 2, item.length() - 1);
            }
            Optional<Integer> tasks = wholeNumber(count);
            Optional<Integer> times = wholeNumber(repeat);
            if (tasks.isEmpty() || times.isEmpty() || tasks.get() < 1 || times.get() < 1) {
                return Optional.of(Excerpt.quoted(item) + " is not N or N(xM) with whole numbers N, M >= 1, e.g. 2(x3)");
            }
            if (into.size() + (long) times.get() > nodes) {
                return Optional.of("it gives tasks for more nodes than the node list's " + nodes);
            }
            for (int i = 0; i < times.get(); i++) {
                into.add(tasks.get());
            }
        }
        return Optional.empty();
    }

    private static Optional<Integer> wholeNumber(String text) {
        if (text.isEmpty() || text.length() > 7 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(text));
    }

    private static HostList invalid(String source, String message) {
        return new HostList(source, List.of(), List.of(Diagnostic.ofFile(source, message)));
    }
}
