package dev.canopy.collectives.soak;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * This JVM's heap after a full GC and its open file descriptors, sampled over a long run, and the
 * test whether they stayed flat. Flat is judged robustly, as GC and connection churn are noisy: the
 * first third of the samples is warm-up; the median of the last third may exceed the median of the
 * second third by at most a relative and an absolute slack. A leak of a fixed amount per operation
 * grows the medians apart in proportion to the run's length; noise does not.
 */
final class ResourceSamples {

    /** One sample: seconds since the start, heap used after GC in bytes, open file descriptors. */
    record Sample(double seconds, long heapBytes, long openFiles) {
        @Override
        public String toString() {
            return String.format("%6.1f s  heap %6.1f MiB  fds %4d", seconds, heapBytes / 1048576.0, openFiles);
        }
    }

    private final long startNanos = System.nanoTime();
    private final List<Sample> samples = new ArrayList<>();

    /** Collects garbage, then records the heap in use and the open file descriptors. */
    Sample take() {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        Sample sample = new Sample((System.nanoTime() - startNanos) / 1e9, heap, openFiles());
        samples.add(sample);
        return sample;
    }

    List<Sample> all() {
        return List.copyOf(samples);
    }

    /** Why the heap grew, or empty if the last third's median is within the bounds of the second third's. */
    String heapGrowth(double relativeSlack, long absoluteSlackBytes) {
        return growth(samples.stream().map(Sample::heapBytes).toList(), relativeSlack, absoluteSlackBytes, "heap bytes");
    }

    /** Why the file descriptors grew, or empty if they stayed within {@code slack} of the second third's median. */
    String openFilesGrowth(long slack) {
        return growth(samples.stream().map(Sample::openFiles).toList(), 0, slack, "open file descriptors");
    }

    static String growth(List<Long> values, double relativeSlack, long absoluteSlack, String what) {
        if (values.size() < 6) {
            return "only " + values.size() + " samples of " + what + ": at least 6 are needed to judge";
        }
        int third = values.size() / 3;
        long middle = median(values.subList(third, 2 * third));
        long last = median(values.subList(values.size() - third, values.size()));
        long bound = middle + Math.round(middle * relativeSlack) + absoluteSlack;
        return last <= bound ? "" : what + " grew: median of the last third " + last + " > " + bound
                + " (median of the second third " + middle + " + " + relativeSlack * 100 + " % + " + absoluteSlack + ")";
    }

    static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static long openFiles() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof UnixOperatingSystemMXBean unix) {
            return unix.getOpenFileDescriptorCount();
        }
        throw new IllegalStateException("this JVM cannot count its open file descriptors (no UnixOperatingSystemMXBean): "
                + "the soak run needs a Unix JVM");
    }
}
