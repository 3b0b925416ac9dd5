package dev.canopy.cli.topology;

import dev.canopy.cli.LevelFiles;
import dev.canopy.gridconfig.Coordinates;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.gridconfig.model.ProcessPlacement;
import dev.canopy.gridconfig.model.Subjob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How latency-CSV node names meet a level file: a node named like a host of the file ({@code hosts =
 * "name:slots"}) takes that host's coordinates; a node named like a site takes the coordinates of the
 * site's first subjob with the site name as host (a site coordinator). Anything else is not in the file.
 */
final class LevelFileNodes {

    private final GridModel model;
    private final Map<String, Coordinates> byName = new LinkedHashMap<>();

    private LevelFileNodes(GridModel model) {
        this.model = model;
        for (ProcessPlacement process : model.processes()) {
            byName.putIfAbsent(process.coordinates().host(), process.coordinates());
        }
        for (Subjob subjob : model.subjobs()) {
            byName.putIfAbsent(subjob.site(), new Coordinates(subjob.wanGroup(), subjob.site(), subjob.lanId(),
                    subjob.cluster(), subjob.site()));
        }
    }

    /** @throws IllegalArgumentException with every diagnostic when the level file is missing or invalid */
    static LevelFileNodes load(Path file) {
        return new LevelFileNodes(LevelFiles.read(file));
    }

    GridModel model() {
        return model;
    }

    /**
     * Coordinates of every node, or empty when no node is named in the level file (levels are then
     * derived from RTTs with the file's thresholds).
     *
     * @throws IllegalArgumentException when only some nodes are named in the file
     */
    Map<String, Coordinates> coordinatesOf(List<String> nodes) {
        Map<String, Coordinates> found = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (String node : nodes) {
            Coordinates coordinates = byName.get(node);
            if (coordinates == null) {
                missing.add(node);
            } else {
                found.put(node, coordinates);
            }
        }
        if (!found.isEmpty() && !missing.isEmpty()) {
            throw new IllegalArgumentException(missing.size() + " of " + nodes.size() + " latency nodes are neither a host nor a "
                    + "site of the level file, e.g. '" + missing.get(0) + "'; name every node after a host or site of "
                    + "the file, or none (levels are then derived from RTTs with the file's thresholds)");
        }
        return found;
    }
}
