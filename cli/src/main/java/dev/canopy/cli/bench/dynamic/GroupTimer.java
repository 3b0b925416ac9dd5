package dev.canopy.cli.bench.dynamic;

import dev.canopy.collectives.Blocking;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Times one operation that every process of a benchmark starts at once: each process's time from the start to
 * its own completion, in milliseconds, in process order.
 */
final class GroupTimer {

    private GroupTimer() {
    }

    static double[] time(int processes, IntFunction<Future<?>> operation) {
        long started = System.nanoTime();
        double[] elapsed = new double[processes];
        List<Future<?>> running = new ArrayList<>();
        for (int process = 0; process < processes; process++) {
            int index = process;
            running.add(operation.apply(process).onSuccess(done -> elapsed[index] = (System.nanoTime() - started) / 1e6));
        }
        running.forEach(Blocking::await);
        return elapsed;
    }
}
