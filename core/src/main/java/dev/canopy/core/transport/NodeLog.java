package dev.canopy.core.transport;

import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * Logs lines about one node: sets the MDC key {@code node} so every line starts with
 * {@code [site/host#rank]} in the configured pattern.
 */
public final class NodeLog {

    private final Logger logger;
    private final String node;

    public NodeLog(Logger logger, String node) {
        this.logger = logger;
        this.node = node;
    }

    public void info(String format, Object... args) {
        try (MDC.MDCCloseable ignored = MDC.putCloseable("node", node)) {
            logger.info(format, args);
        }
    }

    public void warn(String format, Object... args) {
        try (MDC.MDCCloseable ignored = MDC.putCloseable("node", node)) {
            logger.warn(format, args);
        }
    }

    public void error(String format, Object... args) {
        try (MDC.MDCCloseable ignored = MDC.putCloseable("node", node)) {
            logger.error(format, args);
        }
    }

    public void debug(String format, Object... args) {
        if (logger.isDebugEnabled()) {
            try (MDC.MDCCloseable ignored = MDC.putCloseable("node", node)) {
                logger.debug(format, args);
            }
        }
    }
}
