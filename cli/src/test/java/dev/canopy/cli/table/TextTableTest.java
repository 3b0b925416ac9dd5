package dev.canopy.cli.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextTableTest {

    @Test
    void textIsLeftAlignedNumbersRightAlignedAndEachColumnAsWideAsItsWidestCell() {
        String table = TextTable.of(Column.text("tree"), Column.integer("bytes", null), Column.decimal("median", "ms", 2))
                .row("hlot", 64, 21.5)
                .row("binomial", 1048576, 1234.567)
                .render();

        assertThat(table).isEqualTo("""
                tree        bytes  median ms
                hlot           64      21.50
                binomial  1048576    1234.57
                """);
    }

    @Test
    void missingValuesShowAsADashSoNoCellIsBlank() {
        String table = TextTable.of(Column.text("site"), Column.decimal("rtt", "ms", 1), Column.text("forecaster"))
                .row("alpha", null, "")
                .row("beta", Double.NaN, null)
                .render();

        assertThat(table).isEqualTo("""
                site   rtt ms  forecaster
                alpha       -  -
                beta        -  -
                """);
    }

    @Test
    void noLineEndsInSpacesEvenWhenTheLastColumnIsNarrowText() {
        String table = TextTable.of(Column.integer("rank", null), Column.text("host"))
                .row(0, "a-very-long-host-name").row(1, "b").render();

        assertThat(table.lines()).allSatisfy(line -> assertThat(line).doesNotEndWith(" "));
        assertThat(table.lines()).containsExactly("rank  host", "   0  a-very-long-host-name", "   1  b");
    }

    @Test
    void percentColumnsScaleTheShareWordsStandInNumberColumnsAndWholeNumbersTakeDecimals() {
        String table = TextTable.of(Column.text("to"), Column.decimal("expected", "ms", 1), Column.percent("escalated"))
                .row("alpha", "loopback", 0.254)
                .row("beta", 230, 1)
                .render();

        assertThat(table).isEqualTo("""
                to     expected ms  escalated
                alpha     loopback        25%
                beta         230.0       100%
                """);
    }

    @Test
    void anEmptyTableIsItsHeader() {
        assertThat(TextTable.of(Column.text("op"), Column.integer("bytes", "B")).render()).isEqualTo("op  bytes B\n");
    }

    @Test
    void aRowMustFitTheColumnsAndWholeNumberColumnsTakeWholeNumbers() {
        TextTable table = TextTable.of(Column.text("op"), Column.integer("bytes", null));

        assertThatThrownBy(() -> table.row("bcast")).hasMessage("a row of 1 values for 2 columns");
        assertThatThrownBy(() -> table.row("bcast", 1.5)).hasMessage("column bytes holds whole numbers, not 1.5");
        assertThatThrownBy(() -> Column.text(" ")).hasMessage("a column needs a name");
    }
}
