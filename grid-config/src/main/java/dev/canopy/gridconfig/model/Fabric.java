package dev.canopy.gridconfig.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The interconnect of a cluster, which decides how the cluster level can multicast. */
public enum Fabric {
    /** InfiniBand with hardware multicast. */
    IB,
    /** IP multicast over UDP. */
    UDP_MULTICAST,
    /** No multicast-capable fabric: point-to-point only. */
    NONE;

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Fabric> fromConfigName(String text) {
        String canonical = Keyword.canonical(text);
        return Arrays.stream(values()).filter(f -> Keyword.canonical(f.name()).equals(canonical)).findFirst();
    }
}
