package dev.canopy.topology.internal.hierarchy;

import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.Level;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The five-level hierarchy of a set of members: each member's {@link Coordinates}, in member order.
 * A group of level L is the set of members sharing {@link Coordinates#groupKey(Level)}; the tree of a
 * level-L group connects its units, the groups of the next finer level (processes at host level).
 */
public final class Hierarchy {

    private final Map<String, Coordinates> coordinates;

    private Hierarchy(Map<String, Coordinates> coordinates) {
        this.coordinates = Collections.unmodifiableMap(coordinates);
    }

    /** Explicit coordinates, e.g. from a level file; member order is the map's iteration order. */
    public static Hierarchy of(Map<String, Coordinates> coordinates) {
        if (coordinates.isEmpty()) {
            throw new IllegalArgumentException("a hierarchy needs at least one member");
        }
        return new Hierarchy(new LinkedHashMap<>(coordinates));
    }

    /** Levels derived from measured RTTs; see {@link CompleteLinkageLevels} for the rule. */
    public static Hierarchy derive(LatencyMatrix latencies, LevelThresholds thresholds) {
        return of(CompleteLinkageLevels.derive(latencies, thresholds));
    }

    public List<String> members() {
        return List.copyOf(coordinates.keySet());
    }

    public int size() {
        return coordinates.size();
    }

    public boolean contains(String member) {
        return coordinates.containsKey(member);
    }

    public Coordinates coordinates(String member) {
        Coordinates found = coordinates.get(member);
        if (found == null) {
            throw new IllegalArgumentException("'" + member + "' is not a member of this hierarchy");
        }
        return found;
    }

    /** The groups of {@code level} by group key, in order of their first member; members in member order. */
    public Map<String, List<String>> groupsByKey(Level level) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        coordinates.forEach((member, where) -> groups.computeIfAbsent(where.groupKey(level), key -> new ArrayList<>()).add(member));
        Map<String, List<String>> frozen = new LinkedHashMap<>();
        groups.forEach((key, members) -> frozen.put(key, List.copyOf(members)));
        return Collections.unmodifiableMap(frozen);
    }

    /** The groups of {@code level}, as in {@link #groupsByKey(Level)}. */
    public List<List<String>> groups(Level level) {
        return List.copyOf(groupsByKey(level).values());
    }

    /**
     * The key of the unit {@code member} belongs to inside its level-{@code level} group: its group at
     * the next finer level, or the member itself at host level.
     */
    public String unitKey(Level level, String member) {
        Optional<Level> finer = finer(level);
        return finer.isPresent() ? coordinates(member).groupKey(finer.get()) : member;
    }

    /** The hierarchy of a communicator: the given members (in this hierarchy's order), same coordinates. */
    public Hierarchy restrictTo(Collection<String> members) {
        Set<String> wanted = new HashSet<>(members);
        wanted.forEach(this::coordinates);
        Map<String, Coordinates> kept = new LinkedHashMap<>();
        coordinates.forEach((member, where) -> {
            if (wanted.contains(member)) {
                kept.put(member, where);
            }
        });
        return of(kept);
    }

    static Optional<Level> finer(Level level) {
        Level[] levels = Level.values();
        return level.ordinal() + 1 < levels.length ? Optional.of(levels[level.ordinal() + 1]) : Optional.empty();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Hierarchy that && coordinates.equals(that.coordinates)
                && members().equals(that.members());
    }

    @Override
    public int hashCode() {
        return coordinates.hashCode();
    }

    @Override
    public String toString() {
        return "Hierarchy[" + coordinates.size() + " members, " + groups(Level.LIGHT_WAN).size() + " wan groups, "
                + groups(Level.LAN).size() + " sites]";
    }
}
