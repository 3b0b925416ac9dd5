package dev.canopy.gridconfig.model;

import dev.canopy.gridconfig.Keyword;
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
        return Keyword.configName(this);
    }

    public static Optional<Fabric> fromConfigName(String text) {
        return Keyword.parse(Fabric.class, text);
    }
}
