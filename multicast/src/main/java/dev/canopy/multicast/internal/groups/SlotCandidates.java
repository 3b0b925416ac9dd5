package dev.canopy.multicast.internal.groups;

import dev.canopy.gridconfig.model.MulticastRange;
import java.util.Collection;
import java.util.HashSet;
import java.util.OptionalLong;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The slots one allocation tries, in order: a few random slots first (in a wide range one of them is
 * almost surely free, and trying costs one round trip), then, from a list of the taken slots, every slot not
 * known to be taken, from a random start. Random starts keep concurrent jobs from racing for the same slot.
 */
final class SlotCandidates {

    static final int RANDOM_TRIES = 4;

    private final MulticastRange range;
    private final RandomGenerator random;
    private final Set<Long> taken = new HashSet<>();
    private int guesses;
    private boolean listed;
    private long cursor;

    SlotCandidates(MulticastRange range, RandomGenerator random) {
        this.range = range;
        this.random = random;
    }

    /** Whether the random tries are spent and the next candidate needs the list of taken slots. */
    boolean needsListing() {
        return !listed && guesses >= RANDOM_TRIES;
    }

    /** The slots found taken in ZooKeeper (their indexes in the range). */
    void listed(Collection<Long> indexes) {
        taken.addAll(indexes);
        listed = true;
        cursor = random.nextLong(range.capacity());
    }

    /** Forgets the listing, for another round after a sweep. */
    void relist() {
        taken.clear();
        listed = false;
    }

    void taken(long index) {
        taken.add(index);
    }

    /** The next slot to try; empty when every slot of the range is known to be taken. */
    OptionalLong next() {
        if (!listed) {
            guesses++;
            return OptionalLong.of(random.nextLong(range.capacity()));
        }
        if (taken.size() >= range.capacity()) {
            return OptionalLong.empty();
        }
        while (taken.contains(cursor)) {
            cursor = (cursor + 1) % range.capacity();
        }
        return OptionalLong.of(cursor);
    }
}
