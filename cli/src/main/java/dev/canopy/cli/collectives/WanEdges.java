package dev.canopy.cli.collectives;

import dev.canopy.collectives.internal.engine.RootedTree;
import dev.canopy.collectives.plan.CollectivePlan;
import dev.canopy.core.node.Member;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The WAN connections a job's collectives use: every tree edge of the plan between processes at different sites,
 * in both directions (a bcast or scatter sends down an edge, a reduce or gather up it, and each direction of a TCP
 * connection has its own congestion control state). The trees are those rooted at each site's coordinator (its
 * first rank), of every size class of the plan: the coordinators are where hierarchical trees cross the WAN, so a
 * root elsewhere at a site reuses them.
 */
final class WanEdges {

    /** A directed edge: {@code from} sends to {@code to}, ranks of the communicator. */
    record Edge(int from, int to) implements Comparable<Edge> {
        @Override
        public int compareTo(Edge other) {
            return from != other.from ? Integer.compare(from, other.from) : Integer.compare(to, other.to);
        }
    }

    private WanEdges() {
    }

    /** The first rank of each site, in rank order: the site coordinators, and so the roots whose trees are warmed. */
    static List<Integer> siteCoordinators(List<Member> members) {
        Map<String, Integer> first = new LinkedHashMap<>();
        for (int rank = 0; rank < members.size(); rank++) {
            first.putIfAbsent(members.get(rank).coordinates().site(), rank);
        }
        return List.copyOf(first.values());
    }

    /** The WAN edges of {@code plan}'s trees rooted at the site coordinators; computed off {@code context}'s loop. */
    static Future<SortedSet<Edge>> of(CollectivePlan plan, List<Member> members, Context context) {
        List<Future<RootedTree>> trees = new ArrayList<>();
        for (CollectivePlan sizeClass : plan.sizeClassPlans()) {
            for (int root : siteCoordinators(members)) {
                trees.add(sizeClass.treeOffLoop(root, context));
            }
        }
        return Future.all(trees).map(done -> of(trees.stream().map(Future::result).toList(), members));
    }

    /** The edges of {@code trees} between processes at different sites, both directions of each. */
    static SortedSet<Edge> of(List<RootedTree> trees, List<Member> members) {
        SortedSet<Edge> edges = new TreeSet<>();
        for (RootedTree tree : trees) {
            for (int rank = 0; rank < members.size(); rank++) {
                int parent = tree.contains(rank) ? tree.parent(rank) : RootedTree.NO_PARENT;
                if (parent != RootedTree.NO_PARENT && !site(members, parent).equals(site(members, rank))) {
                    edges.add(new Edge(parent, rank));
                    edges.add(new Edge(rank, parent));
                }
            }
        }
        return edges;
    }

    private static String site(List<Member> members, int rank) {
        return members.get(rank).coordinates().site();
    }
}
