package dev.canopy.topology.internal.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.topology.internal.SharedLatencyData;
import java.io.StringReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LatencyCsvReaderTest {

    private static LatencyGraph parse(String text) {
        return LatencyCsvReader.read(new StringReader(text), "test.csv");
    }

    @Test
    void readsEverySharedFileWithAllItsNodesAndLinks() {
        LatencyGraph azure = SharedLatencyData.load("azure_p50_27regions.csv");
        assertThat(azure.nodes()).hasSize(27).contains("West US 2", "Australia Central");
        assertThat(azure.graph().edgeSet()).hasSize(702);
        LatencyGraph planetlab = SharedLatencyData.load("planetlab490_first64.csv");
        assertThat(planetlab.nodes()).hasSize(64).startsWith("pl001");
        assertThat(planetlab.graph().edgeSet()).hasSize(4032);
    }

    @Test
    void oneWayLatencyIsHalfTheRttOfThatDirection() {
        LatencyGraph graph = parse("from,to,rtt_ms\na,b,10\nb,a,12\na,c,7.5\n");
        assertThat(graph.oneWayMs("a", "b")).isEqualTo(5.0);
        assertThat(graph.oneWayMs("b", "a")).isEqualTo(6.0);
        assertThat(graph.oneWayMs("c", "a")).as("one measured direction covers both").isEqualTo(3.75);
        assertThat(graph.oneWayMs("b", "c")).as("missing pairs stay missing").isEqualTo(LatencySource.UNMEASURED);
        LatencyMatrix matrix = graph.toMatrix();
        assertThat(matrix.linked(matrix.indexOf("b"), matrix.indexOf("c"))).isFalse();
        assertThat(matrix.latency(matrix.indexOf("a"), matrix.indexOf("c"))).isEqualTo(3.75);
    }

    @Test
    void acceptsWindowsLineEndsAndBlankLines() {
        LatencyGraph graph = parse("\uFEFFfrom,to,rtt_ms \r\nWest US 2,East Asia,150\r\n\r\n");
        assertThat(graph.oneWayMs("West US 2", "East Asia")).isEqualTo(75.0);
    }

    @Test
    void reportsEachMalformedInputWithItsLine() {
        assertThatThrownBy(() -> parse("")).hasMessage("test.csv: empty file; expected the header from,to,rtt_ms");
        assertThatThrownBy(() -> parse("src,dst,rtt\na,b,1\n")).hasMessageContaining("test.csv:1: header is 'src,dst,rtt'");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,b,1\na,b\n"))
                .hasMessageContaining("test.csv:3: expected 3 fields").hasMessageContaining("found 2");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,b,fast\n"))
                .hasMessageContaining("test.csv:2: rtt_ms 'fast' is not a number");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,b,NaN\n")).hasMessageContaining("test.csv:2:");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,b,1\nb,c,-3\n"))
                .hasMessageContaining("test.csv:3: rtt_ms -3 is negative");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,a,1\n")).hasMessageContaining("test.csv:2: self pair 'a'");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,b,1\na,b,2\n"))
                .hasMessageContaining("test.csv:3: pair 'a' -> 'b' appears twice");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\n,b,1\n")).hasMessageContaining("test.csv:2: column from is empty");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na, b,1\n")).hasMessageContaining("leading or trailing spaces");
        assertThatThrownBy(() -> parse("from,to,rtt_ms\na,b,1,2\n")).hasMessageContaining("found 4");
    }

    @Test
    void namesAMissingFile() {
        assertThatThrownBy(() -> LatencyCsvReader.read(Path.of("no/such.csv")))
                .isInstanceOf(LatencyCsvException.class).hasMessageContaining("no/such.csv: no such file");
    }
}
