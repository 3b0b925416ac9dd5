package dev.canopy.cli.plot;

import static dev.canopy.cli.plot.SvgText.coordinate;
import static dev.canopy.cli.plot.SvgText.escape;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A broadcast tree as a standalone SVG document: the root on top, one row per depth, each parent
 * centred over its children (leaves take successive columns in depth-first order, so subtrees never
 * cross). Every node shows its id and predicted arrival, shaded from early (light) to late (dark);
 * every edge its one-way latency.
 */
public final class TreeSvg {

    private static final int COLUMN = 150;
    private static final int ROW = 110;
    private static final int MARGIN = 40;
    private static final int TITLE = 56;
    private static final int NODE_WIDTH = 136;
    private static final int NODE_HEIGHT = 38;

    /** A tree edge with its one-way latency. */
    public record Edge(String parent, String child, double latencyMs) {
    }

    private final String title;
    private final String root;
    private final Map<String, List<Edge>> children = new LinkedHashMap<>();
    private final Map<String, Double> arrivalMs;

    /**
     * @param arrivalMs predicted arrival per node, relative to the root's start
     * @throws IllegalArgumentException when the edges do not form a tree reaching every node from {@code root}
     */
    public TreeSvg(String title, String root, List<Edge> edges, Map<String, Double> arrivalMs) {
        this.title = title;
        this.root = root;
        this.arrivalMs = Map.copyOf(arrivalMs);
        Map<String, String> parents = new HashMap<>();
        for (Edge edge : edges) {
            if (edge.child().equals(root) || parents.put(edge.child(), edge.parent()) != null) {
                throw new IllegalArgumentException("not a tree: " + edge.child() + " has a second parent " + edge.parent());
            }
            children.computeIfAbsent(edge.parent(), parent -> new ArrayList<>()).add(edge);
        }
        // Earlier arrivals to the left.
        children.values().forEach(list -> list.sort(Comparator.comparingDouble(
                edge -> arrivalMs.getOrDefault(edge.child(), 0.0))));
        if (depthFirst().size() != edges.size() + 1) {
            throw new IllegalArgumentException("not a tree: some of the " + edges.size() + " edges are not reachable from "
                    + root);
        }
    }

    public String render() {
        Map<String, double[]> at = layout();
        double width = at.values().stream().mapToDouble(xy -> xy[0]).max().orElse(0) + NODE_WIDTH / 2.0 + MARGIN;
        double height = at.values().stream().mapToDouble(xy -> xy[1]).max().orElse(0) + NODE_HEIGHT + MARGIN;
        width = Math.max(width, 480);
        double latest = arrivalMs.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        StringBuilder svg = new StringBuilder();
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(coordinate(width)).append("\" height=\"")
                .append(coordinate(height)).append("\" viewBox=\"0 0 ").append(coordinate(width)).append(' ')
                .append(coordinate(height)).append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                .append("<text x=\"").append(coordinate(width / 2)).append("\" y=\"28\" text-anchor=\"middle\" font-size=\"15\">")
                .append(escape(title)).append("</text>\n<g class=\"edges\">\n");
        for (List<Edge> edges : children.values()) {
            for (Edge edge : edges) {
                double[] from = at.get(edge.parent());
                double[] to = at.get(edge.child());
                svg.append("<line class=\"edge\" x1=\"").append(coordinate(from[0])).append("\" y1=\"")
                        .append(coordinate(from[1] + NODE_HEIGHT / 2.0)).append("\" x2=\"").append(coordinate(to[0]))
                        .append("\" y2=\"").append(coordinate(to[1] - NODE_HEIGHT / 2.0))
                        .append("\" stroke=\"#777777\" stroke-width=\"1.5\"/>\n")
                        .append("<text x=\"").append(coordinate((from[0] + to[0]) / 2 + 4)).append("\" y=\"")
                        .append(coordinate((from[1] + to[1]) / 2 + 4)).append("\" fill=\"#777777\" font-size=\"10\">")
                        .append(escape(SvgText.millis(edge.latencyMs()))).append("</text>\n");
            }
        }
        svg.append("</g>\n<g class=\"nodes\">\n");
        for (Map.Entry<String, double[]> node : at.entrySet()) {
            appendNode(svg, node.getKey(), node.getValue(), latest);
        }
        return svg.append("</g>\n</svg>\n").toString();
    }

    private void appendNode(StringBuilder svg, String id, double[] xy, double latest) {
        double arrival = arrivalMs.getOrDefault(id, 0.0);
        // Light blue for the root, darkening to the latest arrival.
        double lateness = latest > 0 ? arrival / latest : 0;
        int lightness = (int) Math.round(92 - 42 * lateness);
        String text = lightness < 65 ? "white" : "#111111";
        svg.append("<g class=\"node\" data-id=\"").append(escape(id)).append("\">\n")
                .append("<rect x=\"").append(coordinate(xy[0] - NODE_WIDTH / 2.0)).append("\" y=\"")
                .append(coordinate(xy[1] - NODE_HEIGHT / 2.0)).append("\" width=\"").append(NODE_WIDTH).append("\" height=\"")
                .append(NODE_HEIGHT).append("\" rx=\"6\" fill=\"hsl(210, 60%, ").append(lightness)
                .append("%)\" stroke=\"#335577\"/>\n")
                .append("<text x=\"").append(coordinate(xy[0])).append("\" y=\"").append(coordinate(xy[1] - 3))
                .append("\" text-anchor=\"middle\" fill=\"").append(text).append("\" font-weight=\"bold\">").append(escape(id))
                .append("</text>\n")
                .append("<text x=\"").append(coordinate(xy[0])).append("\" y=\"").append(coordinate(xy[1] + 12))
                .append("\" text-anchor=\"middle\" fill=\"").append(text).append("\" font-size=\"11\">")
                .append(escape(id.equals(root) ? "root, t = 0" : "t = " + SvgText.millis(arrival))).append("</text>\n</g>\n");
    }

    /** Each node's centre: x from the leaf columns, y from the depth. Insertion order is depth-first. */
    private Map<String, double[]> layout() {
        Map<String, double[]> at = new LinkedHashMap<>();
        place(root, 0, new int[] {0}, at);
        return at;
    }

    /** Places {@code node}'s subtree; returns the node's x. {@code nextLeaf} is the next free leaf column. */
    private double place(String node, int depth, int[] nextLeaf, Map<String, double[]> at) {
        double[] xy = new double[] {0, TITLE + NODE_HEIGHT / 2.0 + depth * ROW};
        at.put(node, xy);
        List<Edge> below = children.getOrDefault(node, List.of());
        if (below.isEmpty()) {
            xy[0] = MARGIN + NODE_WIDTH / 2.0 + nextLeaf[0]++ * COLUMN;
        } else {
            double first = 0;
            double last = 0;
            for (int i = 0; i < below.size(); i++) {
                double x = place(below.get(i).child(), depth + 1, nextLeaf, at);
                first = i == 0 ? x : first;
                last = x;
            }
            xy[0] = (first + last) / 2;
        }
        return xy[0];
    }

    private List<String> depthFirst() {
        List<String> order = new ArrayList<>();
        List<String> stack = new ArrayList<>(List.of(root));
        // Every node has one parent and the root none, so the nodes reachable from the root form a tree: this ends.
        while (!stack.isEmpty()) {
            String node = stack.remove(stack.size() - 1);
            order.add(node);
            for (Edge edge : children.getOrDefault(node, List.of())) {
                stack.add(edge.child());
            }
        }
        return order;
    }
}
