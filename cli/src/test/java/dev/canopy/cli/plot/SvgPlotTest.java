package dev.canopy.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.cli.plot.SvgPlot.Point;
import dev.canopy.cli.plot.SvgPlot.Series;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class SvgPlotTest {

    private static final List<Point> RISING = List.of(new Point(2, 0.5), new Point(1024, 3), new Point(1048576, 250));

    @Test
    void drawsOnePathPerSeriesWithALegendEntryEach() throws Exception {
        SvgPlot plot = new SvgPlot("bcast", "bytes", true, "ms")
                .add(Series.measured("flat", RISING))
                .add(Series.measured("hlot", List.of(new Point(2, 0.4), new Point(1024, 2), new Point(1048576, 120))))
                .add(Series.bound("lower bound", List.of(new Point(2, 0.1), new Point(1048576, 50))));
        Document svg = SvgDocuments.parse(plot.render());
        List<Element> series = SvgDocuments.withClass(svg, "g", "series");
        assertThat(series).extracting(group -> group.getAttribute("data-name")).containsExactly("flat", "hlot", "lower bound");
        assertThat(SvgDocuments.withClass(svg, "path", "series-line")).hasSize(3);
        assertThat(SvgDocuments.withClass(svg, "path", "series-line").get(2).getAttribute("stroke-dasharray")).isNotEmpty();
        assertThat(svg.getDocumentElement().getElementsByTagNameNS("http://www.w3.org/2000/svg", "circle").getLength())
                .as("markers on the measured series only").isEqualTo(6);
    }

    @Test
    void largerValuesMapRightAndUpAndEqualDecadesSpanEqualDistances() throws Exception {
        Document svg = SvgDocuments.parse(new SvgPlot("t", "x", false, "y")
                .add(Series.measured("a", List.of(new Point(10, 1), new Point(100, 10), new Point(1000, 100)))).render());
        List<double[]> vertices = SvgDocuments.vertices(SvgDocuments.withClass(svg, "path", "series-line").get(0));
        assertThat(vertices).hasSize(3);
        for (int i = 1; i < vertices.size(); i++) {
            assertThat(vertices.get(i)[0]).isGreaterThan(vertices.get(i - 1)[0]);
            assertThat(vertices.get(i)[1]).as("SVG y grows downwards").isLessThan(vertices.get(i - 1)[1]);
        }
        double firstStep = vertices.get(1)[0] - vertices.get(0)[0];
        assertThat(vertices.get(2)[0] - vertices.get(1)[0]).isCloseTo(firstStep, org.assertj.core.api.Assertions.within(0.2));
    }

    @Test
    void pointsArriveInAnyOrderAndNonPositiveOnesAreLeftOut() throws Exception {
        Document svg = SvgDocuments.parse(new SvgPlot("t", "x", true, "y")
                .add(Series.measured("a", List.of(new Point(1000, 5), new Point(0, 1), new Point(10, 2), new Point(100, 0))))
                .render());
        List<double[]> vertices = SvgDocuments.vertices(SvgDocuments.withClass(svg, "path", "series-line").get(0));
        assertThat(vertices).hasSize(2);
        assertThat(vertices.get(0)[0]).isLessThan(vertices.get(1)[0]);
    }

    @Test
    void textIsEscaped() throws Exception {
        Document svg = SvgDocuments.parse(new SvgPlot("a < b & \"c\"", "x", true, "y")
                .add(Series.measured("<script>alert('x')</script>", RISING)).render());
        assertThat(svg.getDocumentElement().getTextContent()).contains("a < b & \"c\"", "<script>alert('x')</script>");
        assertThat(svg.getElementsByTagName("script").getLength()).isZero();
    }

    @Test
    void decadeLabelsReadAsNumbersOrBytes() {
        assertThat(LogAxis.label(1, LogAxis.Labels.BYTES)).isEqualTo("1");
        assertThat(LogAxis.label(1e4, LogAxis.Labels.BYTES)).isEqualTo("10 k");
        assertThat(LogAxis.label(1e6, LogAxis.Labels.BYTES)).isEqualTo("1 M");
        assertThat(LogAxis.label(1e3, LogAxis.Labels.NUMBER)).isEqualTo("1000");
        assertThat(LogAxis.label(0.01, LogAxis.Labels.NUMBER)).isEqualTo("0.01");
        LogAxis axis = LogAxis.spanning(3, 3, 0, 100);
        assertThat(axis.decades()).containsExactly(1.0, 10.0);
    }

    @Test
    void aPlotWithNothingPlottableSaysSo() {
        SvgPlot empty = new SvgPlot("t", "x", true, "y").add(Series.measured("a", List.of(new Point(0, 1))));
        assertThatThrownBy(empty::render).isInstanceOf(IllegalStateException.class).hasMessageContaining("nothing to plot");
    }
}
