package dev.canopy.gridconfig.validate;

import dev.canopy.gridconfig.model.Subjob;
import dev.canopy.gridconfig.rsl.Integrity;
import java.util.Optional;

/**
 * A subjob section read on its own, before the checks that span sections (unique labels, one
 * wan_group and uplink per site). {@code durocIndex} is {@code GLOBUS_DUROC_SUBJOB_INDEX} if given.
 */
record SubjobDraft(Subjob subjob, AttributeTable section, Optional<Integer> durocIndex) {

    boolean damaged() {
        return section.integrity() == Integrity.DAMAGED;
    }
}
