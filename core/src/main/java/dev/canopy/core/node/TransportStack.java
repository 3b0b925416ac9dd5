package dev.canopy.core.node;

import dev.canopy.core.transport.Transport;

/**
 * The layers a node puts over its real transport (WAN emulation, fault injection, ...), outermost
 * last: {@code below -> new WanEmulationLayer(below, ...)}.
 */
@FunctionalInterface
public interface TransportStack {

    Transport build(Transport below);

    /** No layers: the node talks through the real transport. */
    static TransportStack none() {
        return below -> below;
    }
}
