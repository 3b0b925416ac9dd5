package dev.canopy.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** The bench charts drawn from the commands' JSON reports. */
class BenchPlotsTest {

    @Test
    void collectivesNamesEveryComparedVariantAndAddsTheLowerBoundOnce() throws Exception {
        JsonArray results = new JsonArray();
        for (String pipeline : List.of("on", "off")) {
            for (int bytes : List.of(1024, 1048576)) {
                results.add(new JsonObject().put("algorithm", "hlot").put("pipeline", pipeline).put("bytes", bytes)
                        .put("median_ms", (bytes / 1000.0 + 1) * (pipeline.equals("on") ? 1 : 2)).put("lower_bound_ms", 0.5));
            }
        }
        JsonObject report = new JsonObject().put("op", "bcast").put("config", "/some/dir/grid.rsl").put("processes", 8)
                .put("root_site", "alpha").put("results", results);
        Document svg = SvgDocuments.parse(BenchPlots.collectives(report).render());
        assertThat(SvgDocuments.withClass(svg, "g", "series")).extracting(group -> group.getAttribute("data-name"))
                .containsExactly("hlot pipeline on", "hlot pipeline off", "lower bound");
        assertThat(svg.getDocumentElement().getTextContent()).contains("bcast on grid.rsl, 8 processes, root alpha");
        // The slower variant's line lies above (smaller SVG y) the faster one's at every size.
        List<Element> lines = SvgDocuments.withClass(svg, "path", "series-line");
        List<double[]> on = SvgDocuments.vertices(lines.get(0));
        List<double[]> off = SvgDocuments.vertices(lines.get(1));
        for (int i = 0; i < on.size(); i++) {
            assertThat(off.get(i)[1]).isLessThan(on.get(i)[1]);
        }
    }

    @Test
    void multicastDrawsOneLinePerMethod() throws Exception {
        JsonArray results = new JsonArray();
        for (String method : List.of("multicast", "binomial tree")) {
            for (int bytes : List.of(8, 65536)) {
                results.add(new JsonObject().put("method", method).put("bytes", bytes).put("latency_median_ms", 0.2 + bytes / 1e4));
            }
        }
        JsonObject report = new JsonObject().put("members", 8).put("fabric", "emulated-ud").put("results", results);
        Document svg = SvgDocuments.parse(BenchPlots.multicast(report).render());
        assertThat(SvgDocuments.withClass(svg, "g", "series")).extracting(group -> group.getAttribute("data-name"))
                .containsExactly("multicast", "binomial tree");
        assertThat(SvgDocuments.withClass(svg, "path", "series-line")).allSatisfy(
                line -> assertThat(SvgDocuments.vertices(line)).hasSize(2));
    }
}
