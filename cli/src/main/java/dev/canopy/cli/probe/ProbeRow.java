package dev.canopy.cli.probe;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One site pair of the {@code canopy probe} table.
 *
 * @param configuredRttMs the round trip the emulator imposes: half the configured RTT of each direction
 * @param forecastRttMs empty when the pair has no forecast (its probes were all lost, or too few periods ran)
 */
record ProbeRow(String a, String b, double configuredRttMs, OptionalDouble forecastRttMs, OptionalDouble errorMs,
                Optional<String> forecaster, long samples, boolean stale) {
}
