package dev.canopy.cli.collectives;

import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.LinkSpec;
import dev.canopy.gridconfig.model.Site;
import java.util.OptionalDouble;
import java.util.stream.DoubleStream;

/**
 * How many bytes warm one direction of a WAN connection ({@code --warm-wan auto}): twice the link's
 * bandwidth-delay product, between {@link #AUTO_MIN_BYTES} and {@link #AUTO_MAX_BYTES}.
 *
 * <p>Why twice: a connection in its start-up phase (BBR's, or slow start) about doubles what it sends per round
 * trip, and BBR estimates the bandwidth from what one round trip delivered, so a flight of {@code X} bytes leaves
 * an estimate of about {@code X / 2} per round trip; {@code 2 x BDP} leaves about the link's rate. The bandwidth is
 * the level file's for the link, else the lower of the two sites' uplinks, else {@link #ASSUMED_MBPS}; the round
 * trip is the link's {@code rtt_ms}. The upper bound keeps the start's cost bounded on long fat links (a flight of
 * 4 MiB takes about 8 round trips from a fresh window) and within a peer's credit at the receiver.
 */
final class WarmUpSizes {

    /** The most a fixed {@code --warm-wan BYTES} may ask for per direction of a connection. */
    static final int MAX_BYTES = 64 << 20;
    /** The least a fixed size may be: less warms nothing a fresh connection's initial window does not carry. */
    static final int MIN_BYTES = 1 << 10;
    static final int AUTO_MIN_BYTES = 256 << 10;
    static final int AUTO_MAX_BYTES = 4 << 20;
    /** The rate assumed for a WAN link the level file gives no bandwidth for (a modest shared WAN path). */
    static final double ASSUMED_MBPS = 100;

    private final GridModel grid;
    private final WarmWanSetting setting;

    WarmUpSizes(GridModel grid, WarmWanSetting setting) {
        this.grid = grid;
        this.setting = setting;
    }

    /** The bytes to send from {@code fromSite} to {@code toSite}. */
    int bytes(String fromSite, String toSite) {
        if (setting.mode() == WarmWanSetting.Mode.FIXED) {
            return setting.bytes();
        }
        LinkSpec link = grid.linkBetween(fromSite, toSite);
        double mbps = link.bandwidthMbps().orElse(slowerUplink(fromSite, toSite).orElse(ASSUMED_MBPS));
        double bdpBytes = mbps * 1e6 / 8 * link.rttMs() / 1e3;
        return (int) Math.max(AUTO_MIN_BYTES, Math.min(AUTO_MAX_BYTES, 2 * bdpBytes));
    }

    /** The link's round trip in ms, which bounds how long its warm-up may take. */
    double rttMs(String fromSite, String toSite) {
        return grid.linkBetween(fromSite, toSite).rttMs();
    }

    private OptionalDouble slowerUplink(String fromSite, String toSite) {
        return DoubleStream.of(uplink(fromSite), uplink(toSite)).filter(Double::isFinite).min();
    }

    private double uplink(String site) {
        return grid.site(site).map(Site::uplinkMbps).orElse(OptionalDouble.empty()).orElse(Double.POSITIVE_INFINITY);
    }
}
