package dev.canopy.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import dev.canopy.gridconfig.GridConfigs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** {@code --plot} and {@code --svg} on the commands: the files they write, and bad paths refused before any work. */
class PlotOptionsTest {

    @TempDir
    Path directory;

    @Test
    void benchCollectivesPlotsOneLinePerAlgorithmAndTheLowerBound() throws Exception {
        Path config = directory.resolve("two-site.rsl");
        Files.writeString(config, GridConfigs.bundledText("two-site.rsl"));
        Path plot = directory.resolve("bcast.svg");
        Run run = run("bench", "collectives", "--config", config.toString(), "--sizes", "2,4096", "--algorithms", "flat,hlot",
                "--iterations", "1", "--warmup", "0", "--plot", plot.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        Document svg = SvgDocuments.parse(Files.readString(plot));
        assertThat(SvgDocuments.withClass(svg, "g", "series")).extracting(group -> group.getAttribute("data-name"))
                .containsExactly("flat", "hlot", "lower bound");
        for (Element line : SvgDocuments.withClass(svg, "path", "series-line")) {
            List<double[]> vertices = SvgDocuments.vertices(line);
            assertThat(vertices).hasSize(2);
            assertThat(vertices.get(1)[0]).isGreaterThan(vertices.get(0)[0]);
        }
    }

    @Test
    void topologyPlanDrawsEveryNodeOfTheTree() throws Exception {
        Path latency = directory.resolve("links.csv");
        Files.writeString(latency, "from,to,rtt_ms\nroot,near,2\nroot,far,80\nnear,far,10\n");
        Path picture = directory.resolve("tree.svg");
        Run run = run("topology", "plan", "--latency", latency.toString(), "--root", "root", "--algorithm", "hlot",
                "--svg", picture.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        Document svg = SvgDocuments.parse(Files.readString(picture));
        assertThat(SvgDocuments.withClass(svg, "g", "node")).extracting(node -> node.getAttribute("data-id"))
                .containsExactlyInAnyOrder("root", "near", "far");
        assertThat(SvgDocuments.withClass(svg, "line", "edge")).hasSize(2);
        assertThat(svg.getDocumentElement().getTextContent()).contains("t = 6.00 ms");
    }

    @Test
    void aPictureIntoAMissingDirectoryIsRefusedBeforeTheRun() throws Exception {
        Path latency = directory.resolve("links.csv");
        Files.writeString(latency, "from,to,rtt_ms\nroot,near,2\n");
        Path missing = directory.resolve("no-such-dir").resolve("tree.svg");
        Run plan = run("topology", "plan", "--latency", latency.toString(), "--root", "root", "--algorithm", "flat",
                "--svg", missing.toString());
        assertThat(plan.exit()).isEqualTo(2);
        assertThat(plan.out()).isEmpty();
        assertThat(plan.err()).contains("--svg", "does not exist; create it first");
        Run bench = run("bench", "collectives", "--config", latency.toString(), "--plot", directory.toString());
        assertThat(bench.exit()).isEqualTo(2);
        assertThat(bench.err()).contains("canopy bench collectives: --plot", "is a directory");
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = CanopyMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(exit, out.toString(), err.toString());
    }
}
