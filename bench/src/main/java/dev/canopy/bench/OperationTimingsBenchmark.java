package dev.canopy.bench;

import dev.canopy.collectives.CollectiveObserver;
import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.collectives.internal.timing.OperationTimings;
import dev.canopy.collectives.internal.timing.TimingsZnode;
import dev.canopy.core.node.JobId;
import dev.canopy.core.security.JobSecret;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/**
 * What noting a collective's timings costs its member (the dashboard's skew reports of multi-process jobs): one
 * operation's start, sequence number and completion through {@link OperationTimings}, beside the same through
 * {@link CollectiveObserver#NONE} (the collectives' default); and, off the event loops, sealing the 32 kept operations
 * for ZooKeeper (what a {@code TimingsPublisher} does at most every 500 ms while a dashboard watches).
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OperationTimingsBenchmark extends BenchmarkDefaults {

    private static final JobId JOB = JobId.of("bench");

    private OperationTimings timings;
    private TimingsZnode znode;
    private long sequence;

    @Setup
    public void setUp() {
        timings = new OperationTimings();
        znode = new TimingsZnode(JobSecret.generate());
        for (int at = 0; at < OperationTimings.KEPT; at++) {
            observe(timings);
        }
    }

    @Benchmark
    public long noObserver() {
        return observe(CollectiveObserver.NONE);
    }

    @Benchmark
    public long operationTimings() {
        return observe(timings);
    }

    @Benchmark
    public byte[] sealKeptOperations() {
        return znode.encode(JOB, new TimingsZnode.MemberTimings("p0", 0, timings.snapshot().operations()));
    }

    private long observe(CollectiveObserver observer) {
        CollectiveObserver.Observation observation = observer.started(Operation.ALLREDUCE, 0, 4096);
        observation.sequenced(1, sequence++, 7);
        observation.completed(null);
        return sequence;
    }
}
