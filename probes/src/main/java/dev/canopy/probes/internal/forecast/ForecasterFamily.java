package dev.canopy.probes.internal.forecast;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Runs a family of forecasters on one bounded series and reports the forecast of the one with the lowest
 * error so far, as the Network Weather Service does.
 *
 * <p>On each new sample every forecaster is first scored on the prediction it made without seeing it; then
 * it observes the sample, and the sample joins the history. Not thread-safe: one family per series, owned
 * by the thread that records the samples.
 */
public final class ForecasterFamily {

    /** Sliding-window forecasters of the standard family look at most this many samples back. */
    public static final int LARGEST_STANDARD_WINDOW = 30;

    private final TimeSeries history;
    private final List<Forecaster> forecasters;
    private final List<ForecastErrors> errors;
    private final ErrorMetric ranking;
    private long samples;

    public ForecasterFamily(int historyCapacity, List<Forecaster> forecasters, ErrorMetric ranking) {
        if (forecasters.isEmpty()) {
            throw new IllegalArgumentException("a forecaster family needs at least one forecaster");
        }
        Set<String> names = new HashSet<>();
        for (Forecaster forecaster : forecasters) {
            if (!names.add(forecaster.name())) {
                throw new IllegalArgumentException("two forecasters are both named " + forecaster.name()
                        + "; reports could not tell them apart");
            }
        }
        this.history = new TimeSeries(historyCapacity);
        this.forecasters = List.copyOf(forecasters);
        this.errors = new ArrayList<>();
        forecasters.forEach(f -> errors.add(new ForecastErrors()));
        this.ranking = ranking;
    }

    /**
     * The NWS-style family: last value, running mean, sliding-window means and medians over 5, 10 and 30
     * samples, a 20 % trimmed mean over 30, exponential smoothing with gains 0.05, 0.1, 0.3 and 0.5, and an
     * adaptive-window median between 5 and 30 samples.
     */
    public static ForecasterFamily standard(int historyCapacity, ErrorMetric ranking) {
        if (historyCapacity < LARGEST_STANDARD_WINDOW) {
            throw new IllegalArgumentException("history of " + historyCapacity + " samples is shorter than the "
                    + LARGEST_STANDARD_WINDOW + "-sample windows of the standard forecasters; keep at least "
                    + LARGEST_STANDARD_WINDOW);
        }
        return new ForecasterFamily(historyCapacity, standardForecasters(), ranking);
    }

    private static List<Forecaster> standardForecasters() {
        List<Forecaster> family = new ArrayList<>();
        family.add(new LastValue());
        family.add(new RunningMean());
        for (int window : new int[] {5, 10, LARGEST_STANDARD_WINDOW}) {
            family.add(new SlidingWindowMean(window));
            family.add(new SlidingWindowMedian(window));
        }
        family.add(new TrimmedMean(LARGEST_STANDARD_WINDOW, 0.2));
        for (double gain : new double[] {0.05, 0.1, 0.3, 0.5}) {
            family.add(new ExponentialSmoothing(gain));
        }
        family.add(new AdaptiveWindowMedian(5, LARGEST_STANDARD_WINDOW));
        return family;
    }

    /** Scores every forecaster against {@code sample}, then adds it to the history. */
    public void record(double sample) {
        if (!Double.isFinite(sample)) {
            throw new IllegalArgumentException("sample " + sample + " is not a finite number");
        }
        for (int i = 0; i < forecasters.size(); i++) {
            Forecaster forecaster = forecasters.get(i);
            OptionalDouble predicted = forecaster.forecast(history);
            if (predicted.isPresent()) {
                errors.get(i).score(predicted.getAsDouble(), sample);
            }
            forecaster.observe(history, sample);
        }
        history.add(sample);
        samples++;
    }

    public long samples() {
        return samples;
    }

    public ErrorMetric ranking() {
        return ranking;
    }

    /** The forecast of the forecaster with the lowest error so far (the first of equals); empty before any sample. */
    public Optional<Forecast> best() {
        Forecast best = null;
        double bestError = Double.POSITIVE_INFINITY;
        for (int i = 0; i < forecasters.size(); i++) {
            double error = errors.get(i).mean(ranking);
            if (error < bestError) {
                OptionalDouble value = forecasters.get(i).forecast(history);
                if (value.isPresent()) {
                    best = forecastOf(i, value.getAsDouble());
                    bestError = error;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** Every forecaster's current forecast with its errors, in family order; for diagnostics and tests. */
    public List<Forecast> all() {
        List<Forecast> all = new ArrayList<>();
        for (int i = 0; i < forecasters.size(); i++) {
            OptionalDouble value = forecasters.get(i).forecast(history);
            if (value.isPresent()) {
                all.add(forecastOf(i, value.getAsDouble()));
            }
        }
        return all;
    }

    private Forecast forecastOf(int index, double value) {
        ForecastErrors error = errors.get(index);
        return new Forecast(value, forecasters.get(index).name(), error.meanSquared(), error.meanAbsolute(), samples);
    }
}
