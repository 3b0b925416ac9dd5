package dev.canopy.dynamic;

/**
 * Two separately joined jobs on {@link TwoJobs#fourSites()} connected by one service name: the fixture of a test
 * class whose tests all use the one inter-communicator; closing it disconnects and stops both jobs.
 */
final class ConnectedJobs implements AutoCloseable {

    final TwoJobs jobs;
    final TwoJobs.Pair inter;

    private ConnectedJobs(TwoJobs jobs, TwoJobs.Pair inter) {
        this.jobs = jobs;
        this.inter = inter;
    }

    /** The server job at the sites' processes {@code serverAt}, the client job at {@code clientAt}, connected. */
    static ConnectedJobs start(int[] serverAt, int[] clientAt, InterPhase phase, String service) {
        TwoJobs jobs = TwoJobs.start(TwoJobs.fourSites(), serverAt, clientAt, false, phase);
        try {
            return new ConnectedJobs(jobs, jobs.connect(service));
        } catch (RuntimeException | Error e) {
            jobs.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            inter.disconnect();
        } finally {
            jobs.close();
        }
    }
}
