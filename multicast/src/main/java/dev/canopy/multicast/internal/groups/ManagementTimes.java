package dev.canopy.multicast.internal.groups;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * What managing groups costs: for each policy, how many groups were created and destroyed and how long that
 * took (the ZooKeeper round trips of leasing, looking up and releasing). These are the "management" numbers
 * of {@code canopy bench groups} and the measured input of the {@code auto} policy. Thread-safe.
 */
public final class ManagementTimes {

    /** Count, total and largest duration of one kind of step. */
    public record Timing(long count, Duration total, Duration max) {

        static final Timing NONE = new Timing(0, Duration.ZERO, Duration.ZERO);

        /** The mean duration; zero when nothing was timed. */
        public Duration mean() {
            return count == 0 ? Duration.ZERO : total.dividedBy(count);
        }

        Timing plus(long nanos) {
            Duration step = Duration.ofNanos(nanos);
            return new Timing(count + 1, total.plus(step), step.compareTo(max) > 0 ? step : max);
        }
    }

    private final Map<GroupPolicy, Timing> creations = new EnumMap<>(GroupPolicy.class);
    private final Map<GroupPolicy, Timing> destructions = new EnumMap<>(GroupPolicy.class);

    synchronized void created(GroupPolicy policy, long nanos) {
        creations.put(policy, creation(policy).plus(nanos));
    }

    synchronized void destroyed(GroupPolicy policy, long nanos) {
        destructions.put(policy, destruction(policy).plus(nanos));
    }

    /** Creating (leasing, or looking up, and joining) the groups of {@code policy}. */
    public synchronized Timing creation(GroupPolicy policy) {
        return creations.getOrDefault(policy, Timing.NONE);
    }

    /** Destroying (releasing) the groups of {@code policy}. */
    public synchronized Timing destruction(GroupPolicy policy) {
        return destructions.getOrDefault(policy, Timing.NONE);
    }

    @Override
    public synchronized String toString() {
        StringBuilder text = new StringBuilder("group management:");
        for (GroupPolicy policy : GroupPolicy.values()) {
            Timing create = creation(policy);
            Timing destroy = destruction(policy);
            if (create.count() > 0 || destroy.count() > 0) {
                text.append(String.format(Locale.ROOT, " %s create %d x %.3f ms (max %.3f), destroy %d x %.3f ms (max %.3f);",
                        policy.configName(), create.count(), millis(create.mean()), millis(create.max()),
                        destroy.count(), millis(destroy.mean()), millis(destroy.max())));
            }
        }
        return text.toString();
    }

    private static double millis(Duration duration) {
        return duration.toNanos() / 1e6;
    }
}
