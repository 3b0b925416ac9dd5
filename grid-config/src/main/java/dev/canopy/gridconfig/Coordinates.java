package dev.canopy.gridconfig;

import java.util.Comparator;
import java.util.Objects;

/**
 * Where a process sits in the grid: its heavy-WAN region, its site, LAN, cluster fabric and host.
 * Coordinates are the vocabulary shared by the level files, membership, topology and collectives.
 */
public record Coordinates(String wanGroup, String site, String lanId, String cluster, String host)
        implements Comparable<Coordinates> {

    private static final Comparator<Coordinates> ORDER = Comparator.comparing(Coordinates::wanGroup)
            .thenComparing(Coordinates::site)
            .thenComparing(Coordinates::lanId)
            .thenComparing(Coordinates::cluster)
            .thenComparing(Coordinates::host);

    public Coordinates {
        requireName(wanGroup, "wanGroup");
        requireName(site, "site");
        requireName(lanId, "lanId");
        requireName(cluster, "cluster");
        requireName(host, "host");
    }

    /** Coordinates of a single-host process: every coordinate derived from the host name. */
    public static Coordinates ofHost(String host) {
        return new Coordinates(host, host, host, host, host);
    }

    /**
     * The key shared by exactly the processes in the same group of {@code level}: everyone at
     * heavy_wan, one wan group at light_wan, one site at lan, one cluster at cluster, one host at host.
     */
    public String groupKey(Level level) {
        return switch (level) {
            case HEAVY_WAN -> "";
            case LIGHT_WAN -> wanGroup;
            case LAN -> wanGroup + "/" + site;
            case CLUSTER -> wanGroup + "/" + site + "/" + lanId + "/" + cluster;
            case HOST -> wanGroup + "/" + site + "/" + lanId + "/" + cluster + "/" + host;
        };
    }

    /** The level of the link between this process and {@code other}: the coarsest coordinate that differs. */
    public Level linkLevel(Coordinates other) {
        if (!wanGroup.equals(other.wanGroup)) {
            return Level.HEAVY_WAN;
        }
        if (!site.equals(other.site)) {
            return Level.LIGHT_WAN;
        }
        if (!lanId.equals(other.lanId) || !cluster.equals(other.cluster)) {
            return Level.LAN;
        }
        if (!host.equals(other.host)) {
            return Level.CLUSTER;
        }
        return Level.HOST;
    }

    @Override
    public int compareTo(Coordinates other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return wanGroup + "/" + site + "/" + lanId + "/" + cluster + "/" + host;
    }

    private static void requireName(String value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isBlank()) {
            throw new IllegalArgumentException("coordinate " + field + " must not be blank");
        }
    }
}
