package dev.canopy.multicast.internal.groups;

import dev.canopy.gridconfig.model.MulticastRange;

/**
 * Every address and port of the multicast range is leased by a running job: this job gets no group rather
 * than a group shared with someone else. The message names the range and how to widen it.
 */
public final class RangeExhaustedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final transient MulticastRange range;

    RangeExhaustedException(MulticastRange range, String job, GroupKey key) {
        super("cannot lease a multicast group for " + key + " of job " + job + ": all " + range.capacity()
                + " addresses and ports of multicast range " + range + " are leased by running jobs; widen it in the"
                + " grid section of the level file, e.g. (" + MulticastRange.RANGE_ATTRIBUTE + " = "
                + widerExample(range) + ") or more ports with (" + MulticastRange.PORTS_ATTRIBUTE + " = FIRST-LAST),"
                + " see docs/groups.md,"
                + " or end jobs that hold groups");
        this.range = range;
    }

    public MulticastRange range() {
        return range;
    }

    private static String widerExample(MulticastRange range) {
        if (range.prefix() <= 8) {
            return range.cidr();
        }
        int prefix = Math.max(8, range.prefix() - 2);
        int network = range.network() & (-1 << (32 - prefix));
        return MulticastRange.dotted(network) + "/" + prefix;
    }
}
