package dev.canopy.collectives.grid;

import dev.canopy.core.node.Member;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.topology.internal.graph.LatencySource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Latencies for tests: a base one-way latency per link level, spread by up to 3x with a
 * deterministic per-pair factor (String hash codes are the same in every JVM), so HLOT, MST, SPT
 * and the others build different trees.
 */
public final class SyntheticLatencies implements LatencySource {

    private final Map<String, Coordinates> coordinates = new HashMap<>();

    public SyntheticLatencies(List<Member> members) {
        members.forEach(member -> coordinates.put(member.id().value(), member.coordinates()));
    }

    @Override
    public double oneWayMs(String from, String to) {
        double base = switch (coordinates.get(from).linkLevel(coordinates.get(to))) {
            case HEAVY_WAN -> 40;
            case LIGHT_WAN -> 8;
            case LAN -> 1;
            case CLUSTER -> 0.2;
            case HOST -> 0.02;
        };
        int spread = Math.floorMod((from + "->" + to).hashCode(), 200);
        return base * (1 + spread / 100.0);
    }
}
