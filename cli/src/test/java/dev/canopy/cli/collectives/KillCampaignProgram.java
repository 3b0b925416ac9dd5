package dev.canopy.cli.collectives;

import dev.canopy.collectives.ArrayType;
import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.CollectiveFailedException;
import dev.canopy.collectives.CollectiveSettings;
import dev.canopy.collectives.Collectives;
import dev.canopy.collectives.Completion;
import dev.canopy.collectives.TypedCollectives;
import dev.canopy.collectives.plan.ConfiguredPlans;
import dev.canopy.collectives.reduce.BuiltInOp;
import dev.canopy.collectives.run.CanopyProgram;
import dev.canopy.collectives.run.CanopySession;
import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.comm.Communicator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Launched by {@link KillCampaignTest}: stages of collectives in a loop, each with a victim that kills itself
 * with SIGKILL instead of starting iteration {@value #KILL_AT}; the survivors detect it, revoke, agree, shrink
 * and run the next stage on the survivors. The stages come from the job name, {@code kill-<seed>-<stages>},
 * a stage being an operation letter (b = bcast, a = allreduce, t = alltoall) and the victim's WORLD rank, e.g.
 * {@code kill-7-b2-a0-t3}. Collectives complete {@link Completion#AGREED}, so every survivor depends on every
 * member. Output lines, with WORLD ranks and wall-clock milliseconds:
 * {@code KILL stage rank ms}, {@code FAILED stage rank ms failedRank message}, {@code WRONG ...},
 * {@code RECOVERED stage rank size}, {@code DONE rank size}.
 */
public final class KillCampaignProgram implements CanopyProgram {

    static final int ITERATIONS = 5;
    static final int KILL_AT = 2;

    record Stage(char operation, int victim) {
    }

    @Override
    public void run(CanopySession session) {
        List<Stage> stages = parse(System.getenv(JoinOptions.ENV_JOB));
        int me = session.rank();
        Communicator communicator = session.world();
        Collectives collectives = collectivesOver(communicator, session);
        TypedCollectives<long[]> longs = collectives.typed(ArrayType.LONGS);
        for (int stage = 0; stage < stages.size(); stage++) {
            Stage plan = stages.get(stage);
            for (int iteration = 0; iteration < ITERATIONS; iteration++) {
                if (iteration == KILL_AT && me == plan.victim()) {
                    say("KILL " + stage + " " + me + " " + System.currentTimeMillis());
                    killMyself();
                }
                try {
                    check(stage, plan.operation(), longs, communicator, session);
                } catch (CollectiveFailedException failure) {
                    long at = System.currentTimeMillis();
                    int failed = failure.failedRank().isPresent()
                            ? worldRankOf(communicator, failure.failedRank().getAsInt(), session) : -1;
                    say("FAILED " + stage + " " + me + " " + at + " " + failed + " " + failure.getMessage());
                    Blocking.await(communicator.revoke());
                    Blocking.await(communicator.agree(true));
                    communicator = Blocking.await(communicator.shrink());
                    collectives = collectivesOver(communicator, session);
                    longs = collectives.typed(ArrayType.LONGS);
                    check(stage, plan.operation(), longs, communicator, session);
                    say("RECOVERED " + stage + " " + me + " " + communicator.size());
                    break;
                }
            }
        }
        say("DONE " + me + " " + communicator.size());
        // Nobody leaves before every survivor is done; the last message may be lost to a member that closes while
        // it is still inside the emulated WAN delay, so the barrier's own failure is no error (as at session close).
        Blocking.await(collectives.barrier().otherwiseEmpty());
    }

    /** One operation with a result every member can check; a wrong one is printed. */
    private static void check(int stage, char operation, TypedCollectives<long[]> longs, Communicator communicator,
            CanopySession session) {
        int rank = communicator.rank();
        int size = communicator.size();
        long[] expected;
        long[] got;
        switch (operation) {
            case 'b' -> {
                expected = new long[] {42, stage};
                got = Blocking.await(longs.bcast(rank == 0 ? expected : null, 0));
            }
            case 'a' -> {
                long ranks = communicator.members().stream().mapToLong(m -> session.world().members().indexOf(m)).sum();
                expected = new long[] {size, ranks};
                got = Blocking.await(longs.allreduce(new long[] {1, session.rank()}, BuiltInOp.SUM));
            }
            case 't' -> {
                long[] mine = new long[size];
                expected = new long[size];
                for (int other = 0; other < size; other++) {
                    mine[other] = 100L * rank + other;
                    expected[other] = 100L * other + rank;
                }
                got = Blocking.await(longs.alltoall(mine, 1));
            }
            default -> throw new IllegalArgumentException("operation " + operation);
        }
        if (!java.util.Arrays.equals(expected, got)) {
            say("WRONG " + stage + " " + session.rank() + " " + java.util.Arrays.toString(got) + " expected "
                    + java.util.Arrays.toString(expected));
        }
    }

    private static Collectives collectivesOver(Communicator communicator, CanopySession session) {
        return new Collectives(communicator, ConfiguredPlans.of(communicator.members(), session.grid()),
                CollectiveSettings.defaults().withCompletion(Completion.AGREED));
    }

    private static int worldRankOf(Communicator communicator, int rank, CanopySession session) {
        return session.world().members().indexOf(communicator.member(rank));
    }

    static List<Stage> parse(String job) {
        String[] parts = job.split("-");
        List<Stage> stages = new ArrayList<>();
        for (int i = 2; i < parts.length; i++) {
            stages.add(new Stage(parts[i].charAt(0), Integer.parseInt(parts[i].substring(1))));
        }
        return stages;
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static void killMyself() {
        try {
            new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            System.err.println("cannot run kill: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(137);
    }
}
