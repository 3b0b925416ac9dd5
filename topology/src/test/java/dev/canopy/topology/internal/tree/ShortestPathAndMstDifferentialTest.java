package dev.canopy.topology.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.canopy.topology.internal.RandomLatencies.Symmetry;
import dev.canopy.topology.internal.RandomLatencies;
import dev.canopy.topology.internal.SharedLatencyData;
import dev.canopy.topology.internal.graph.LatencyGraph;
import dev.canopy.topology.internal.graph.LatencyMatrix;
import java.nio.file.Path;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jgrapht.Graph;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm.SingleSourcePaths;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.alg.spanning.PrimMinimumSpanningTree;
import org.jgrapht.graph.AsUndirectedGraph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.junit.jupiter.api.Test;

/** The dense SPT and MST against JGraphT's Dijkstra and Prim on the same graphs. */
class ShortestPathAndMstDifferentialTest {

    @Property(tries = 200)
    void sptArrivalEqualsJGraphTDijkstra(@ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int n,
            @ForAll Symmetry symmetry, @ForAll @IntRange(min = 0, max = 100) int rootSeed) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.3, symmetry);
        assertSptMatchesDijkstra(matrix, RandomLatencies.toJGraphT(matrix), rootSeed % n);
    }

    @Test
    void sptArrivalEqualsJGraphTDijkstraOnEverySharedMatrix() {
        for (Path file : SharedLatencyData.files()) {
            LatencyGraph graph = SharedLatencyData.load(file);
            LatencyMatrix matrix = graph.toMatrix();
            for (int root : new int[] {0, matrix.size() - 1}) {
                assertSptMatchesDijkstra(matrix, graph.graph(), root);
            }
        }
    }

    @Property(tries = 200)
    void mstWeightEqualsJGraphTPrimOnSymmetricConnectedGraphs(@ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int n) {
        LatencyMatrix matrix = RandomLatencies.matrix(seed, n, 0.0, Symmetry.SYMMETRIC);
        Tree mst = new MstTreeBuilder().build(matrix, 0, CostModel.LATENCY_ONLY).orElseThrow();
        double weight = mst.edges().stream().mapToDouble(e -> matrix.latency(e.parent(), e.child())).sum();
        Graph<String, DefaultWeightedEdge> undirected = new AsUndirectedGraph<>(RandomLatencies.toJGraphT(matrix));
        assertThat(weight).isCloseTo(new PrimMinimumSpanningTree<>(undirected).getSpanningTree().getWeight(), within(1e-6));
    }

    private static void assertSptMatchesDijkstra(LatencyMatrix matrix, Graph<String, DefaultWeightedEdge> graph, int root) {
        SingleSourcePaths<String, DefaultWeightedEdge> paths = new DijkstraShortestPath<>(graph).getPaths(matrix.name(root));
        PlanningResult<Tree> spt = new ShortestPathTreeBuilder().build(matrix, root, CostModel.LATENCY_ONLY);
        boolean allReachable = matrix.nodes().stream().allMatch(v -> paths.getWeight(v) < Double.POSITIVE_INFINITY);
        assertThat(spt.isPlanned()).isEqualTo(allReachable);
        if (allReachable) {
            Prediction prediction = CostModel.LATENCY_ONLY.predict(spt.orElseThrow(), matrix);
            for (String node : matrix.nodes()) {
                assertThat(prediction.arrivalMs().get(node)).as("arrival of %s", node).isCloseTo(paths.getWeight(node), within(1e-9));
            }
            assertThat(prediction.completionMs()).isCloseTo(ShortestPaths.from(matrix, root).maxDistanceMs(), within(1e-9));
        }
    }
}
