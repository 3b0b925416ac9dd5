package dev.canopy.core.comm;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The context ids one participant of an agreement can give new communicators: every id from
 * {@code next} up, and the {@code reusable} ids of communicators it has freed (at most
 * {@value #MAX_REUSABLE} of them, the smallest, travel).
 *
 * <p>Context ids run from {@code WORLD_CONTEXT + 1} to {@value #MAX_CONTEXT_ID}; {@code next} is at most one more
 * (all used), so neither it nor a chosen id ever wraps around to a negative one.
 *
 * <p>Wire form: {@code next} (int), count (int), then count ids (ints).
 */
record ContextIdOffer(int next, List<Integer> reusable) {

    static final int MAX_REUSABLE = 64;
    /** The largest context id: one below {@code Integer.MAX_VALUE}, so the next id after it is still an int. */
    static final int MAX_CONTEXT_ID = Integer.MAX_VALUE - 1;

    ContextIdOffer {
        reusable = List.copyOf(reusable);
    }

    static ContextIdOffer of(int next, Set<Integer> freed) {
        return new ContextIdOffer(next, freed.stream().sorted().limit(MAX_REUSABLE).toList());
    }

    Buffer appendTo(Buffer out) {
        out.appendInt(next).appendInt(reusable.size());
        reusable.forEach(out::appendInt);
        return out;
    }

    int encodedLength() {
        return 8 + 4 * reusable.size();
    }

    /** Reads an offer at {@code offset} of a contribution, checking every field. */
    static ContextIdOffer read(Buffer in, int offset) {
        if (in.length() < offset + 8) {
            throw new IllegalArgumentException("a context id offer needs 8 bytes at offset " + offset + ", the "
                    + "contribution has " + in.length());
        }
        int next = in.getInt(offset);
        int count = in.getInt(offset + 4);
        if (next <= CommunicatorRuntime.WORLD_CONTEXT || count < 0 || count > MAX_REUSABLE
                || in.length() < offset + 8 + 4 * count) {
            throw new IllegalArgumentException("malformed context id offer: next " + next + ", " + count
                    + " reusable ids (at most " + MAX_REUSABLE + "), " + in.length() + " bytes");
        }
        List<Integer> reusable = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int id = in.getInt(offset + 8 + 4 * i);
            if (id <= CommunicatorRuntime.WORLD_CONTEXT || id >= next) {
                throw new IllegalArgumentException("reusable context id " + id + " is not between "
                        + (CommunicatorRuntime.WORLD_CONTEXT + 1) + " and next " + next);
            }
            reusable.add(id);
        }
        return new ContextIdOffer(next, reusable);
    }

    /**
     * {@code count} ids free on every participant: the smallest ids every offer can reuse, then ids
     * from the largest {@code next} up. Every participant computes the same list from the same offers.
     *
     * @throws IllegalStateException when fewer than {@code count} ids are left below {@value #MAX_CONTEXT_ID}
     */
    static List<Integer> choose(List<ContextIdOffer> offers, int count) {
        TreeSet<Integer> common = new TreeSet<>(offers.get(0).reusable());
        offers.forEach(offer -> common.retainAll(offer.reusable()));
        List<Integer> chosen = new ArrayList<>(common.stream().limit(count).toList());
        int fresh = offers.stream().mapToInt(ContextIdOffer::next).max().orElseThrow();
        int needed = count - chosen.size();
        if (needed > 0 && (long) fresh + needed - 1 > MAX_CONTEXT_ID) {
            throw new IllegalStateException("no context ids left for " + count + " new communicators: ids up to "
                    + MAX_CONTEXT_ID + " are in use and " + chosen.size() + " freed ones are free on every member;"
                    + " free() communicators that are no longer needed");
        }
        while (chosen.size() < count) {
            chosen.add(fresh++);
        }
        return chosen;
    }
}
