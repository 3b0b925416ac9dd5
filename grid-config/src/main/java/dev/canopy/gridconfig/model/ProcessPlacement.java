package dev.canopy.gridconfig.model;

import dev.canopy.gridconfig.Coordinates;
import java.util.Map;

/**
 * Where one process of the job runs.
 *
 * @param indexInSubjob 0-based rank inside its subjob
 * @param globalIndex 0-based rank in the whole job: subjobs in file order, then index in subjob
 * @param environment the subjob's environment, passed to the process
 */
public record ProcessPlacement(String subjobLabel, int indexInSubjob, int globalIndex, Coordinates coordinates,
        Map<String, String> environment) {

    public ProcessPlacement {
        environment = Subjob.orderedCopy(environment);
    }
}
