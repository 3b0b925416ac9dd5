package dev.canopy.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class P2pPlotTest {

    @Test
    void oneLinePerTransportThroughItsMedianRoundTrips() throws Exception {
        List<P2pRow> rows = List.of(
                P2pRow.of("canopy", 8, new long[] {40_000, 50_000, 60_000}, 10, 1_000_000),
                P2pRow.of("canopy", 4096, new long[] {80_000, 90_000, 100_000}, 10, 1_000_000),
                P2pRow.of("netsocket", 8, new long[] {30_000, 35_000, 40_000}, 10, 1_000_000),
                P2pRow.of("netsocket", 4096, new long[] {60_000, 70_000, 80_000}, 10, 1_000_000));
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document svg = factory.newDocumentBuilder().parse(new ByteArrayInputStream(
                P2pPlot.of(rows).render().getBytes(StandardCharsets.UTF_8)));
        NodeList groups = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        List<String> series = new java.util.ArrayList<>();
        for (int i = 0; i < groups.getLength(); i++) {
            Element group = (Element) groups.item(i);
            if (group.getAttribute("class").equals("series")) {
                series.add(group.getAttribute("data-name"));
                assertThat(group.getElementsByTagNameNS("http://www.w3.org/2000/svg", "circle").getLength()).isEqualTo(2);
            }
        }
        assertThat(series).containsExactly("canopy", "netsocket");
        assertThat(svg.getDocumentElement().getTextContent()).contains("median round trip (\u00b5s)");
    }
}
