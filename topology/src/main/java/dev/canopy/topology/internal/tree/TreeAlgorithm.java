package dev.canopy.topology.internal.tree;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/** The tree methods by the names used on the command line and in level files. */
public enum TreeAlgorithm {
    FLAT(FlatTreeBuilder::new),
    BINOMIAL(BinomialTreeBuilder::new),
    MST(MstTreeBuilder::new),
    HLOT(HlotTreeBuilder::new),
    SPT(ShortestPathTreeBuilder::new),
    /** The model-driven tree: earliest completing edge first. */
    ECEF(EarliestCompletingEdgeFirstTreeBuilder::new),
    /** Bandwidth-aware: one child per node, a chain the message is pipelined down. */
    CHAIN(BoundedFanOutTreeBuilder::chain),
    /** Bandwidth-aware: at most two children per node. */
    BINARY(BoundedFanOutTreeBuilder::binary),
    /** The candidate with the lowest predicted completion for the level and message size. */
    AUTO(AutoTreeBuilder::new);

    private final Supplier<TreeBuilder> factory;

    TreeAlgorithm(Supplier<TreeBuilder> factory) {
        this.factory = factory;
    }

    public TreeBuilder builder() {
        return factory.get();
    }

    /** Lower-case name, e.g. {@code hlot}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<TreeAlgorithm> fromConfigName(String text) {
        for (TreeAlgorithm algorithm : values()) {
            if (algorithm.configName().equalsIgnoreCase(text.strip())) {
                return Optional.of(algorithm);
            }
        }
        return Optional.empty();
    }

    /**
     * @throws IllegalArgumentException naming the accepted names when {@code text} is none of them
     */
    public static TreeAlgorithm parse(String text) {
        return fromConfigName(text).orElseThrow(() -> new IllegalArgumentException(
                "unknown --algorithm '" + text + "'; use one of " + names()));
    }

    /** The accepted names, for error messages. */
    public static String names() {
        StringBuilder names = new StringBuilder();
        for (TreeAlgorithm algorithm : values()) {
            names.append(names.length() == 0 ? "" : ", ").append(algorithm.configName());
        }
        return names.toString();
    }
}
