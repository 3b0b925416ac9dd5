package dev.canopy.topology.internal.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Differential: the primitive table against a HashMap on random operation sequences. */
class LinkTableTest {

    @Property(tries = 200)
    void behavesLikeAMapOfPairs(@ForAll @Size(max = 400) List<@IntRange(min = 0, max = 40) Integer> froms,
            @ForAll @IntRange(min = 0, max = 1000) int seed) {
        LinkTable table = new LinkTable();
        Map<Long, Double> reference = new HashMap<>();
        java.util.Random random = new java.util.Random(seed);
        for (int from : froms) {
            int to = random.nextInt(60);
            double value = random.nextDouble();
            long key = ((long) from << 32) | to;
            if (random.nextBoolean()) {
                assertThat(table.putIfAbsent(from, to, value)).isEqualTo(!reference.containsKey(key));
                reference.putIfAbsent(key, value);
            } else {
                table.put(from, to, value);
                reference.put(key, value);
            }
        }
        assertThat(table.size()).isEqualTo(reference.size());
        Map<Long, Double> visited = new HashMap<>();
        table.forEach((from, to, value) -> visited.put(((long) from << 32) | to, value));
        assertThat(visited).isEqualTo(reference);
        for (int from = 0; from <= 41; from++) {
            for (int to = 0; to < 60; to++) {
                Double expected = reference.get(((long) from << 32) | to);
                if (expected == null) {
                    assertThat(table.get(from, to)).isNaN();
                } else {
                    assertThat(table.get(from, to)).isEqualTo(expected.doubleValue());
                }
            }
        }
    }
}
