package dev.canopy.collectives.run;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which process of the level file this one is, as the launcher that started it says: {@code mpirun}
 * (Open MPI, MPICH/Hydra, MVAPICH) or Slurm's {@code srun} put the rank and the job size in every
 * process's environment. The first launcher in this order whose rank variable is set decides:
 *
 * <ol>
 *   <li>Open MPI: {@code OMPI_COMM_WORLD_RANK} and {@code OMPI_COMM_WORLD_SIZE}, or PMIx's
 *       {@code PMIX_RANK} (PMIx gives no size in the environment: {@code OMPI_COMM_WORLD_SIZE} if set);
 *       when both ranks are set they must agree;</li>
 *   <li>MPICH/Hydra: {@code PMI_RANK} and {@code PMI_SIZE};</li>
 *   <li>MVAPICH: {@code MV2_COMM_WORLD_RANK} and {@code MV2_COMM_WORLD_SIZE};</li>
 *   <li>Slurm: {@code SLURM_PROCID} and {@code SLURM_NTASKS}.</li>
 * </ol>
 *
 * MPI's variables win over Slurm's: {@code mpirun} inside a Slurm allocation inherits the batch step's
 * {@code SLURM_PROCID=0} in every process. A launcher variable that is set but malformed is an error, never
 * skipped for the next launcher's, and a size that differs from the level file's number of processes is an
 * error naming both. Pure: reads only the map it is given.
 */
public final class LauncherEnvironment {

    /** One launcher's variables: its rank and its size (null where the launcher gives no size). */
    private record Launcher(String name, String rankVariable, String sizeVariable) {
    }

    private static final List<Launcher> LAUNCHERS = List.of(
            new Launcher("Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
            new Launcher("PMIx", "PMIX_RANK", null),
            new Launcher("MPICH/Hydra", "PMI_RANK", "PMI_SIZE"),
            new Launcher("MVAPICH", "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE"),
            new Launcher("Slurm", "SLURM_PROCID", "SLURM_NTASKS"));

    /** The rank variables looked at, in order, for messages. */
    public static final List<String> RANK_VARIABLES = LAUNCHERS.stream().map(Launcher::rankVariable).toList();

    /** What the environment says about this process. */
    public sealed interface Lookup permits Found, NotLaunched, Invalid {
    }

    /**
     * This process is {@code index} of the level file, from {@code rankVariable}; {@code size} and
     * {@code sizeVariable} are the job size the launcher gave (empty for PMIx alone).
     */
    public record Found(int index, OptionalInt size, String launcher, String rankVariable, Optional<String> sizeVariable)
            implements Lookup {

        public Found {
            Objects.requireNonNull(size, "size");
            Objects.requireNonNull(launcher, "launcher");
            Objects.requireNonNull(rankVariable, "rankVariable");
            Objects.requireNonNull(sizeVariable, "sizeVariable");
        }

        /** {@code OMPI_COMM_WORLD_RANK=3 (Open MPI)}: where the index came from, for logs. */
        public String describe() {
            return rankVariable + "=" + index + sizeVariable.map(variable -> ", " + variable + "=" + size.getAsInt()).orElse("")
                    + " (" + launcher + ")";
        }
    }

    /** No launcher variable is set: the process was not started by a launcher Canopy knows. */
    public record NotLaunched() implements Lookup {
    }

    /** A launcher variable is set but cannot be used; {@code message} names the variable and the fix. */
    public record Invalid(String message) implements Lookup {

        public Invalid {
            Objects.requireNonNull(message, "message");
        }
    }

    private LauncherEnvironment() {
    }

    /**
     * The index of this process among the {@code processCount} processes of {@code levelFile}, as
     * {@code environment}'s launcher variables give it.
     */
    public static Lookup lookup(Map<String, String> environment, int processCount, String levelFile) {
        Lookup found = fromLauncher(environment);
        if (!(found instanceof Found rank)) {
            return found;
        }
        if (rank.size().isPresent() && rank.size().getAsInt() != processCount) {
            return new Invalid(rank.sizeVariable().orElseThrow() + "=" + rank.size().getAsInt() + " says the job has "
                    + rank.size().getAsInt() + " processes, but the level file " + levelFile + " has " + processCount
                    + "; start as many processes as the file has (mpirun -np " + processCount + ", srun -n "
                    + processCount + ") or write a level file for this job (canopy config from-hostfile, from-slurm)");
        }
        if (rank.index() >= processCount) {
            return new Invalid(rank.rankVariable() + "=" + rank.index() + " is not one of the " + processCount
                    + " processes of the level file " + levelFile + " (0 to " + (processCount - 1) + ")");
        }
        return rank;
    }

    /** The first launcher's rank and size, unchecked against a level file. */
    static Lookup fromLauncher(Map<String, String> environment) {
        Optional<Launcher> launcher = LAUNCHERS.stream().filter(candidate -> environment.containsKey(candidate.rankVariable()))
                .findFirst();
        if (launcher.isEmpty()) {
            return new NotLaunched();
        }
        Launcher chosen = launcher.get();
        if (chosen.rankVariable().equals("OMPI_COMM_WORLD_RANK") && environment.containsKey("PMIX_RANK")) {
            Optional<Invalid> disagreement = pmixDisagrees(environment);
            if (disagreement.isPresent()) {
                return disagreement.get();
            }
        }
        String sizeVariable = chosen.sizeVariable() != null ? chosen.sizeVariable()
                : environment.containsKey("OMPI_COMM_WORLD_SIZE") ? "OMPI_COMM_WORLD_SIZE" : null;
        ParsedNumber rank = ParsedNumber.of(chosen.rankVariable(), environment.get(chosen.rankVariable()), 0);
        if (rank.error() != null) {
            return new Invalid(rank.error());
        }
        if (sizeVariable == null) {
            return new Found(rank.value(), OptionalInt.empty(), chosen.name(), chosen.rankVariable(), Optional.empty());
        }
        if (!environment.containsKey(sizeVariable)) {
            return new Invalid(chosen.rankVariable() + " is set but " + sizeVariable + " is not; " + chosen.name()
                    + " sets both, so this environment was changed by hand: set " + sizeVariable
                    + " to the number of processes, or unset " + chosen.rankVariable() + " and give --process");
        }
        ParsedNumber size = ParsedNumber.of(sizeVariable, environment.get(sizeVariable), 1);
        if (size.error() != null) {
            return new Invalid(size.error());
        }
        if (rank.value() >= size.value()) {
            return new Invalid(chosen.rankVariable() + "=" + rank.value() + " is not below " + sizeVariable + "="
                    + size.value() + "; a rank runs from 0 to the size minus 1");
        }
        return new Found(rank.value(), OptionalInt.of(size.value()), chosen.name(), chosen.rankVariable(),
                Optional.of(sizeVariable));
    }

    /** Open MPI 5 sets both OMPI_COMM_WORLD_RANK and PMIX_RANK; two different ranks cannot both be right. */
    private static Optional<Invalid> pmixDisagrees(Map<String, String> environment) {
        ParsedNumber ompi = ParsedNumber.of("OMPI_COMM_WORLD_RANK", environment.get("OMPI_COMM_WORLD_RANK"), 0);
        ParsedNumber pmix = ParsedNumber.of("PMIX_RANK", environment.get("PMIX_RANK"), 0);
        if (ompi.error() == null && pmix.error() == null && ompi.value() != pmix.value()) {
            return Optional.of(new Invalid("OMPI_COMM_WORLD_RANK=" + ompi.value() + " and PMIX_RANK=" + pmix.value()
                    + " disagree; Open MPI sets both to the same rank, so one was changed by hand: unset the wrong one"));
        }
        return Optional.empty();
    }

    /** A whole number read from a variable, or why it is not one. */
    private record ParsedNumber(int value, String error) {

        static ParsedNumber of(String variable, String text, int minimum) {
            String stripped = text.strip();
            String shown = "\"" + (stripped.length() > 40 ? stripped.substring(0, 40) + "..." : stripped) + "\"";
            if (stripped.isEmpty() || !stripped.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return new ParsedNumber(-1, variable + "=" + shown + " is not a whole number " + (minimum == 0
                        ? "(a rank: 0, 1, ...)" : "(a job size: 1, 2, ...)") + "; check what sets it in this process's environment");
            }
            int value;
            try {
                value = Integer.parseInt(stripped);
            } catch (NumberFormatException e) {
                return new ParsedNumber(-1, variable + "=" + shown + " is too large for a " + (minimum == 0 ? "rank" : "job size"));
            }
            if (value < minimum) {
                return new ParsedNumber(-1, variable + "=" + value + " must be at least " + minimum);
            }
            return new ParsedNumber(value, null);
        }
    }
}
