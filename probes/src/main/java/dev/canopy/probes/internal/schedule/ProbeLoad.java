package dev.canopy.probes.internal.schedule;

/**
 * The probe traffic one node takes part in.
 *
 * @param probesPerSecond probes it sends or answers per second
 * @param messagesPerSecond probe messages it sends plus those it receives per second (two per probe)
 */
public record ProbeLoad(double probesPerSecond, double messagesPerSecond) {
}
