package dev.canopy.cli.dashboard;

import dev.canopy.cli.FutureWait;
import dev.canopy.cli.launch.ProcessExitListener;
import dev.canopy.dashboard.JobDashboard;
import dev.canopy.dashboard.failure.ProcessExits;
import java.time.Duration;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A launch's process ends on its dashboard ({@link ProcessExits}), each judged on a membership read that began after
 * the process ended: a process that left cleanly before it ended is then no longer joined. Called from the
 * launcher's waiting threads (never an event loop), which may block for the read.
 */
public final class ExitsOnDashboard implements ProcessExitListener {

    private static final Logger LOG = LoggerFactory.getLogger(ExitsOnDashboard.class);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private final JobDashboard dashboard;
    private final IntFunction<String> memberOfProcess;

    /** @param memberOfProcess the member id each process (level-file index) joins with */
    public ExitsOnDashboard(JobDashboard dashboard, IntFunction<String> memberOfProcess) {
        this.dashboard = dashboard;
        this.memberOfProcess = memberOfProcess;
    }

    @Override
    public void exited(int process, int status, String meaning) {
        try {
            // Two reads: one under way may have begun before the process ended; the next began after.
            FutureWait.await(dashboard.refresh().transform(first -> dashboard.refresh()), READ_TIMEOUT,
                    "the dashboard's read of the job");
        } catch (RuntimeException e) {
            LOG.debug("reading the job after process {} ended: {}", process, e.getMessage());
            if (status == 0) {
                return; // whether it left is unknown without a fresh read: no verdict
            }
        }
        ProcessExits.exited(dashboard.state(), memberOfProcess.apply(process), status, meaning);
    }
}
