package dev.canopy.cli.config;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.internal.hosts.HostList;
import dev.canopy.gridconfig.internal.hosts.SlurmHosts;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code canopy config from-slurm --site-by RULE}: a level file for the nodes of the Slurm job (or job step)
 * this runs in, from {@code SLURM_STEP_NODELIST} or {@code SLURM_JOB_NODELIST} and the tasks per node.
 */
@Command(
        name = "from-slurm",
        mixinStandardHelpOptions = true,
        description = {"Write a level file for the nodes of this Slurm job (or step), grouped into sites by --site-by.",
            "Reads SLURM_STEP_NODELIST or SLURM_JOB_NODELIST (compressed, e.g. node[01-04,07]) and",
            "SLURM_STEP_TASKS_PER_NODE or SLURM_TASKS_PER_NODE (e.g. 2(x3),1; one task per node without it).",
            "Process i of the file is on the node where srun (block distribution) starts task i."})
public final class ConfigFromSlurmCommand extends HostLevelFileCommand {

    @Option(names = "--nodelist", paramLabel = "LIST", description = "The node list, instead of Slurm's variables"
            + " (e.g. \"node[01-04]\").")
    private String nodelist;

    @Option(names = "--tasks-per-node", paramLabel = "TASKS", description = "The tasks per node, with --nodelist"
            + " (e.g. \"2(x3),1\"; default: one per node).")
    private String tasksPerNode;

    @Override
    HostList hosts() {
        if (nodelist != null) {
            return SlurmHosts.of("--nodelist", nodelist, "--tasks-per-node", Optional.ofNullable(tasksPerNode));
        }
        if (tasksPerNode != null) {
            return new HostList("--tasks-per-node", List.of(), List.of(Diagnostic.ofFile("--tasks-per-node",
                    "goes with --nodelist; without --nodelist the tasks per node come from Slurm's variables")));
        }
        return SlurmHosts.fromEnvironment(System.getenv());
    }

    @Override
    String defaultName() {
        String jobId = System.getenv("SLURM_JOB_ID");
        return jobId != null && jobId.matches("[0-9_]{1,20}") ? "slurm-" + jobId : "slurm";
    }

    @Override
    String origin() {
        return "written by canopy config from-slurm";
    }
}
