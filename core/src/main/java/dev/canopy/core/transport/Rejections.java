package dev.canopy.core.transport;

import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.security.Printable;
import dev.canopy.core.internal.security.RateLimitedWarnings;
import dev.canopy.core.internal.security.Rejection;
import dev.canopy.core.internal.security.SecurityCounters;
import dev.canopy.core.node.NodeLogger;
import java.util.concurrent.TimeUnit;

/**
 * Counts every refusal of input from the wire and logs it without letting a flood of bad packets
 * flood the log: at most one warning per remote host every {@value #INTERVAL_SECONDS} s, the next
 * one saying how many were suppressed; the rest at debug level.
 *
 * <p>Owned by the transport's context.
 */
final class Rejections {

    static final int INTERVAL_SECONDS = 10;
    private static final int MAX_REMEMBERED_HOSTS = 1024;
    private static final int MAX_DETAIL_CHARS = 200;

    private final SecurityCounters counters = new SecurityCounters();
    private final RateLimitedWarnings warnings = new RateLimitedWarnings(TimeUnit.SECONDS.toNanos(INTERVAL_SECONDS),
            MAX_REMEMBERED_HOSTS, NanoClock.SYSTEM);
    private final NodeLogger log;

    Rejections(NodeLogger log) {
        this.log = log;
    }

    NodeLogger log() {
        return log;
    }

    SecurityCounters counters() {
        return counters;
    }

    /** Counts {@code rejection} of input from {@code remoteHost} and logs it if the rate allows. */
    void reject(Rejection rejection, String remoteHost, String what, String detail) {
        counters.count(rejection);
        RateLimitedWarnings.Decision decision = warnings.attempt(remoteHost);
        String safeDetail = Printable.of(detail, MAX_DETAIL_CHARS);
        if (decision.emit()) {
            log.warn("refused {} (host {}): {}, {}{}", what, remoteHost, rejection, safeDetail, decision.suppressed() == 0
                    ? "" : " (" + decision.suppressed() + " more refusals from this host in the last "
                            + INTERVAL_SECONDS + " s not logged; see the transport's security counters)");
        } else {
            log.debug("refused {} (host {}): {}, {}", what, remoteHost, rejection, safeDetail);
        }
    }
}
