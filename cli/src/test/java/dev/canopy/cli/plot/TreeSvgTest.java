package dev.canopy.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class TreeSvgTest {

    private static final List<TreeSvg.Edge> EDGES = List.of(
            new TreeSvg.Edge("a", "b", 2), new TreeSvg.Edge("a", "c", 20), new TreeSvg.Edge("b", "d", 3),
            new TreeSvg.Edge("b", "e", 4), new TreeSvg.Edge("c", "f", 1));
    private static final Map<String, Double> ARRIVALS = Map.of("a", 0.0, "b", 2.0, "c", 20.0, "d", 5.0, "e", 6.0, "f", 21.0);

    @Test
    void everyNodeIsLabelledWithItsIdAndArrivalAndEveryEdgeDrawn() throws Exception {
        Document svg = SvgDocuments.parse(new TreeSvg("hlot <tree>", "a", EDGES, ARRIVALS).render());
        List<Element> nodes = SvgDocuments.withClass(svg, "g", "node");
        assertThat(nodes).extracting(node -> node.getAttribute("data-id")).containsExactlyInAnyOrder("a", "b", "c", "d", "e", "f");
        assertThat(nodes).filteredOn(node -> node.getAttribute("data-id").equals("e"))
                .singleElement().satisfies(node -> assertThat(node.getTextContent()).contains("e", "t = 6.00 ms"));
        assertThat(SvgDocuments.withClass(svg, "line", "edge")).hasSize(EDGES.size());
        assertThat(svg.getDocumentElement().getTextContent()).contains("hlot <tree>");
    }

    @Test
    void depthGoesDownAndParentsSitOverTheirChildren() throws Exception {
        Document svg = SvgDocuments.parse(new TreeSvg("t", "a", EDGES, ARRIVALS).render());
        Map<String, double[]> centre = new HashMap<>();
        for (Element node : SvgDocuments.withClass(svg, "g", "node")) {
            Element box = (Element) node.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect").item(0);
            centre.put(node.getAttribute("data-id"), new double[] {
                Double.parseDouble(box.getAttribute("x")) + Double.parseDouble(box.getAttribute("width")) / 2,
                Double.parseDouble(box.getAttribute("y"))});
        }
        assertThat(centre.get("a")[1]).isLessThan(centre.get("b")[1]);
        assertThat(centre.get("b")[1]).isEqualTo(centre.get("c")[1]).isLessThan(centre.get("d")[1]);
        assertThat(centre.get("b")[0]).isBetween(centre.get("d")[0], centre.get("e")[0]);
        // Earlier arrivals to the left, and subtrees do not interleave.
        assertThat(centre.get("b")[0]).isLessThan(centre.get("c")[0]);
        assertThat(centre.get("e")[0]).isLessThan(centre.get("f")[0]);
    }

    @Test
    void edgesThatAreNotATreeFromTheRootAreRefused() {
        assertThatThrownBy(() -> new TreeSvg("t", "a", List.of(new TreeSvg.Edge("a", "b", 1), new TreeSvg.Edge("c", "b", 1)),
                ARRIVALS)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("second parent");
        assertThatThrownBy(() -> new TreeSvg("t", "a", List.of(new TreeSvg.Edge("a", "b", 1), new TreeSvg.Edge("c", "d", 1),
                new TreeSvg.Edge("d", "c", 1)), ARRIVALS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not reachable from a");
    }
}
