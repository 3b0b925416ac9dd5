package dev.canopy.core.node;

import dev.canopy.gridconfig.Coordinates;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * Log lines about one node: each call sets the MDC key {@code node} to the node's current label
 * ({@code site/host#rank}, {@code #?} before ranks are known), so the configured pattern starts the
 * line with it. Several nodes share event-loop threads, so the key is set per call, not per thread.
 */
public final class NodeLogger {

    private final Logger logger;
    private final Supplier<String> label;

    public NodeLogger(Logger logger, Supplier<String> label) {
        this.logger = logger;
        this.label = label;
    }

    /** The label of a node at {@code coordinates}: {@code site/host#rank}, or {@code #?} without a rank. */
    public static String label(Coordinates coordinates, OptionalInt rank) {
        return coordinates.site() + "/" + coordinates.host() + "#" + (rank.isPresent() ? rank.getAsInt() : "?");
    }

    public void info(String format, Object... args) {
        if (logger.isInfoEnabled()) {
            try (MDC.MDCCloseable ignored = MDC.putCloseable("node", label.get())) {
                logger.info(format, args);
            }
        }
    }

    public void warn(String format, Object... args) {
        try (MDC.MDCCloseable ignored = MDC.putCloseable("node", label.get())) {
            logger.warn(format, args);
        }
    }

    public void error(String format, Object... args) {
        try (MDC.MDCCloseable ignored = MDC.putCloseable("node", label.get())) {
            logger.error(format, args);
        }
    }

    public void debug(String format, Object... args) {
        if (logger.isDebugEnabled()) {
            try (MDC.MDCCloseable ignored = MDC.putCloseable("node", label.get())) {
                logger.debug(format, args);
            }
        }
    }
}
