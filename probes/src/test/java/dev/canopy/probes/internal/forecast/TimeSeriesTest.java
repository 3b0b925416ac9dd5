package dev.canopy.probes.internal.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TimeSeriesTest {

    @Test
    void keepsOnlyTheNewestSamplesOnceFull() {
        TimeSeries series = new TimeSeries(3);
        for (int i = 1; i <= 5; i++) {
            series.add(i);
        }
        assertThat(series.size()).isEqualTo(3);
        assertThat(series.newest()).isEqualTo(5);
        assertThat(series.get(2)).isEqualTo(3);
        assertThat(series.newestSamples(10)).containsExactly(3, 4, 5);
        assertThat(series.newestSamples(2)).containsExactly(4, 5);
    }

    @Test
    void refusesWhatCannotBeASample() {
        TimeSeries series = new TimeSeries(2);
        assertThatThrownBy(() -> series.add(Double.NaN)).hasMessageContaining("not a finite number");
        assertThatThrownBy(() -> series.get(0)).hasMessageContaining("outside the 0 samples");
        assertThatThrownBy(() -> new TimeSeries(0)).hasMessageContaining("at least 1");
    }
}
