package dev.canopy.cli.build;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which module may depend on which (docs/library.md, "Modules and packages"): grid-config and core at the bottom;
 * zookeeper-server, multicast, topology, probes and processes above core; collectives above them; dynamic above
 * collectives; dashboard, cli, bench and examples on top. A module not listed here fails ModuleLayersTest until
 * its place is decided.
 */
final class ModuleLayers {

    /** The modules a program may depend on; their packages are api or internal (ApiSurfaceTest). */
    static final List<String> LIBRARY = List.of("grid-config", "core", "zookeeper-server", "multicast", "topology",
            "probes", "processes", "collectives", "dynamic");

    /** Module directory to the modules it may depend on, in any scope. */
    static final Map<String, Set<String>> MAY_USE = mayUse();

    private ModuleLayers() {
    }

    private static Map<String, Set<String>> mayUse() {
        Map<String, Set<String>> mayUse = new LinkedHashMap<>();
        mayUse.put("grid-config", Set.of());
        mayUse.put("core", Set.of("grid-config"));
        Set<String> aboveCore = Set.of("grid-config", "core", "zookeeper-server");
        mayUse.put("zookeeper-server", Set.of("grid-config", "core"));
        mayUse.put("multicast", aboveCore);
        mayUse.put("topology", Set.of("grid-config"));
        mayUse.put("probes", aboveCore);
        mayUse.put("processes", aboveCore);
        mayUse.put("collectives", Set.of("grid-config", "core", "zookeeper-server", "multicast", "topology", "probes"));
        mayUse.put("dynamic", Set.of("grid-config", "core", "zookeeper-server", "multicast", "topology", "probes",
                "processes", "collectives"));
        mayUse.put("dashboard", Set.copyOf(LIBRARY));
        mayUse.put("cli", union(LIBRARY, "dashboard"));
        mayUse.put("bench", Set.copyOf(LIBRARY));
        mayUse.put("examples", Set.copyOf(LIBRARY));
        return Map.copyOf(mayUse);
    }

    private static Set<String> union(List<String> modules, String module) {
        Set<String> union = new HashSet<>(modules);
        union.add(module);
        return Set.copyOf(union);
    }

    /** The package a module's classes live in (and below). */
    static String rootPackage(String module) {
        return switch (module) {
            case "grid-config" -> "dev.canopy.gridconfig";
            case "zookeeper-server" -> "dev.canopy.zookeeper.server";
            default -> "dev.canopy." + module;
        };
    }

    static boolean isLibraryPackage(String packageName) {
        return LIBRARY.stream().map(ModuleLayers::rootPackage)
                .anyMatch(root -> packageName.equals(root) || packageName.startsWith(root + "."));
    }
}
