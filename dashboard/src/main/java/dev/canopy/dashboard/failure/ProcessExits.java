package dev.canopy.dashboard.failure;

import dev.canopy.dashboard.model.DashboardState;
import dev.canopy.dashboard.model.MemberState;
import io.vertx.core.json.JsonObject;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Shows what a launcher knows of its processes' ends on the dashboard, where no failure detector runs beside them
 * ({@code canopy launch}): a member whose process ended with a non-zero exit status (the program failed, a signal
 * killed it, or over ssh its host's session ended before it reported one) is {@code failed}, with a {@code failure}
 * event carrying the status ({@code exit_status}) and, for a signal, its number ({@code signal}). So is one whose
 * process ended with status 0 while its member znode is still there: it went without leaving (its goodbye). ZooKeeper
 * alone would show either {@code left} once the member's session expired. A process that ended with 0 after leaving
 * is shown as ZooKeeper has it.
 */
public final class ProcessExits {

    /** The JVM's and the shells' convention: a process killed by signal N ends with status 128 + N. */
    private static final int SIGNALLED = 128;
    /** The highest signal number on Linux (SIGRTMAX). */
    private static final int HIGHEST_SIGNAL = 64;

    private ProcessExits() {
    }

    /**
     * Process of member {@code member} ended with exit {@code status}, which means {@code meaning} (the launcher's
     * explanation, e.g. "killed by signal 9 (SIGKILL...)"). Call it once {@code state} holds a membership read that
     * began after the process ended ({@code JobDashboard.refresh}), so that a member that left is no longer joined.
     */
    public static void exited(DashboardState state, String member, int status, String meaning) {
        Objects.requireNonNull(meaning, "meaning");
        JsonObject evidence = new JsonObject().put("exit_status", status);
        if (status != 0) {
            signal(status).ifPresent(signal -> evidence.put("signal", signal));
            state.memberFailed(member, "its process ended with exit status " + status + ": " + meaning
                    + " (seen by the launcher)", evidence);
        } else if (state.sourceStatus().equals("ok") && state.snapshot().byId(member)
                .filter(known -> known.state() == MemberState.JOINED).isPresent()) {
            state.memberFailed(member, "its process ended with exit status 0 without leaving the job (its member znode"
                    + " stays until ZooKeeper expires its session) (seen by the launcher)", evidence);
        }
    }

    /** The signal that exit {@code status} says killed the process, if it says one did. */
    public static OptionalInt signal(int status) {
        return status > SIGNALLED && status <= SIGNALLED + HIGHEST_SIGNAL ? OptionalInt.of(status - SIGNALLED)
                : OptionalInt.empty();
    }
}
