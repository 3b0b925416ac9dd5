package dev.canopy.topology.internal;

import dev.canopy.topology.internal.graph.LatencyCsvReader;
import dev.canopy.topology.internal.graph.LatencyGraph;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The real latency matrices in {@code shared/latency/} beside the repository, found by walking up from
 * the working directory (the module directory under Maven). Loaded once per JVM.
 */
public final class SharedLatencyData {

    private static final Map<Path, LatencyGraph> LOADED = new ConcurrentHashMap<>();

    private SharedLatencyData() {
    }

    public static Path directory() {
        for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
            Path candidate = at.resolve("shared").resolve("latency");
            if (Files.isRegularFile(candidate.resolve("README.md"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("shared/latency/ not found above " + Path.of("").toAbsolutePath()
                + "; the tests need the shared latency data checked out beside the repository (../shared/latency)");
    }

    /** Every CSV in the shared directory, sorted by name. */
    public static List<Path> files() {
        try (Stream<Path> listing = Files.list(directory())) {
            List<Path> files = listing.filter(path -> path.toString().endsWith(".csv")).sorted().toList();
            if (files.isEmpty()) {
                throw new IllegalStateException("no *.csv in " + directory());
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static LatencyGraph load(String fileName) {
        return load(directory().resolve(fileName));
    }

    public static LatencyGraph load(Path file) {
        return LOADED.computeIfAbsent(file, LatencyCsvReader::read);
    }
}
