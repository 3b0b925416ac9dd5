package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.topology.internal.RandomLatencies.Symmetry;
import dev.canopy.topology.internal.RandomLatencies;
import dev.canopy.topology.internal.SharedLatencyData;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jgrapht.Graph;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm.SingleSourcePaths;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.junit.jupiter.api.Test;

/**
 * What every {@link TreeBuilder} must do, run by one subclass per builder: span every node exactly
 * once over measured links only, never beat the lower bound, have its arrivals follow the cost model,
 * report an unreachable node by name exactly when it cannot be reached, and be deterministic.
 */
abstract class TreeBuilderContractTest {

    /** Whether a builder may use any measured link, or needs links its fixed shape dictates. */
    enum LinkUse { ANY_MEASURED_LINK, FIXED_SHAPE }

    abstract TreeBuilder builder();

    LinkUse linkUse() {
        return LinkUse.ANY_MEASURED_LINK;
    }

    @Provide
    Arbitrary<Double> holes() {
        return Arbitraries.of(0.0, 0.0, 0.05, 0.3, 0.7);
    }

    @Provide
    Arbitrary<CostModel> costs() {
        return Arbitraries.of(CostModel.LATENCY_ONLY, new CostModel(0.5, 0, 0, 0), new CostModel(5, 0, 0, 0),
                new CostModel(0.01, 0.2, 0.00008, 65_536), new CostModel(0, 3, 0, 0));
    }

    @Property(tries = 150)
    void spansRandomGraphsOverMeasuredLinksFollowingTheCostModel(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int n, @ForAll("holes") double holes, @ForAll Symmetry symmetry,
            @ForAll @IntRange(min = 0, max = 1000) int rootSeed, @ForAll("costs") CostModel cost) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, holes, symmetry);
        int root = rootSeed % n;
        PlanningResult<Tree> result = builder().build(matrix, root, cost);
        Set<String> reachable = reachableFrom(RandomLatencies.toJGraphT(matrix), matrix.name(root));
        if (result instanceof PlanningResult.Planned<Tree> planned) {
            assertValidTree(planned.value(), matrix, root, cost);
        } else {
            PlanningResult.Unreachable<Tree> unreachable = (PlanningResult.Unreachable<Tree>) result;
            assertThat(matrix.indexOf(unreachable.node())).as("the unreachable node is named").isGreaterThanOrEqualTo(0);
            if (linkUse() == LinkUse.ANY_MEASURED_LINK) {
                assertThat(reachable).as("JGraphT finds no path to the node %s reported", builder().name())
                        .doesNotContain(unreachable.node());
            } else {
                assertThat(unreachable.reason()).contains("not measured");
            }
        }
        if (linkUse() == LinkUse.ANY_MEASURED_LINK && reachable.size() == n) {
            assertThat(result.isPlanned()).as("every node is reachable, so %s must plan", builder().name()).isTrue();
        }
    }

    @Test
    void spansEverySharedMatrixFromSeveralRoots() {
        for (Path file : SharedLatencyData.files()) {
            LatencyMatrix matrix = SharedLatencyData.load(file).toMatrix();
            for (int root : new int[] {0, matrix.size() / 2, matrix.size() - 1}) {
                for (CostModel cost : List.of(CostModel.LATENCY_ONLY, new CostModel(2, 0, 0.00008, 100_000))) {
                    Tree tree = builder().build(matrix, root, cost).orElseThrow();
                    assertValidTree(tree, matrix, root, cost);
                }
            }
        }
    }

    @Test
    void buildsTheSameTreeTwice() {
        LatencyMatrix matrix = SharedLatencyData.load("planetlab490_first64.csv").toMatrix();
        CostModel cost = new CostModel(1, 0, 0, 0);
        assertThat(builder().build(matrix, 7, cost)).isEqualTo(builder().build(matrix, 7, cost));
    }

    @Test
    void aSingleNodeIsItsOwnTree() {
        LatencyMatrix single = LatencyMatrix.ofRowMajor(List.of("only"), new double[] {0});
        Tree tree = builder().build(single, 0, CostModel.LATENCY_ONLY).orElseThrow();
        assertThat(tree.root()).isEqualTo("only");
        assertThat(tree.edges()).isEmpty();
    }

    @Test
    void namesANodeWithoutAnyMeasuredLink() {
        double inf = Double.POSITIVE_INFINITY;
        LatencyMatrix matrix = LatencyMatrix.ofRowMajor(List.of("a", "b", "island"),
                new double[] {0, 5, inf, 5, 0, inf, inf, inf, 0});
        PlanningResult<Tree> result = builder().build(matrix, 0, CostModel.LATENCY_ONLY);
        assertThat(result).isInstanceOf(PlanningResult.Unreachable.class);
        assertThat(((PlanningResult.Unreachable<Tree>) result).node()).isEqualTo("island");
    }

    static void assertValidTree(Tree tree, LatencyMatrix matrix, int root, CostModel cost) {
        int n = matrix.size();
        assertThat(tree.nodes()).isEqualTo(matrix.nodes());
        assertThat(tree.rootIndex()).isEqualTo(root);
        int[] parents = new int[n];
        java.util.Arrays.fill(parents, -1);
        int edges = 0;
        for (Tree.Edge edge : tree.edges()) {
            assertThat(parents[edge.child()]).as("%s has one parent", matrix.name(edge.child())).isEqualTo(-1);
            assertThat(edge.child()).isNotEqualTo(root);
            assertThat(matrix.linked(edge.parent(), edge.child()))
                    .as("edge %s -> %s is measured", matrix.name(edge.parent()), matrix.name(edge.child())).isTrue();
            parents[edge.child()] = edge.parent();
            edges++;
        }
        assertThat(edges).as("a spanning tree has n - 1 edges").isEqualTo(n - 1);
        for (int v = 0; v < n; v++) {
            int steps = 0;
            for (int at = v; at != root; at = parents[at]) {
                assertThat(parents[at]).as("%s leads to the root", matrix.name(v)).isNotEqualTo(-1);
                assertThat(++steps).isLessThanOrEqualTo(n);
            }
        }
        Prediction prediction = cost.predict(tree, matrix);
        double lowerBound = ShortestPaths.from(matrix, root).maxDistanceMs();
        assertThat(prediction.completionMs()).isGreaterThanOrEqualTo(lowerBound - 1e-9);
        if (n <= 64) {
            for (String node : matrix.nodes()) {
                assertThat(prediction.arrivalMs().get(node)).as("arrival of %s", node)
                        .isCloseTo(ReferenceCostModel.arrival(tree, matrix, cost, node), within(1e-6));
            }
        }
    }

    private static Set<String> reachableFrom(Graph<String, DefaultWeightedEdge> graph, String root) {
        SingleSourcePaths<String, DefaultWeightedEdge> paths = new DijkstraShortestPath<>(graph).getPaths(root);
        return graph.vertexSet().stream().filter(v -> paths.getWeight(v) < Double.POSITIVE_INFINITY).collect(Collectors.toSet());
    }
}
