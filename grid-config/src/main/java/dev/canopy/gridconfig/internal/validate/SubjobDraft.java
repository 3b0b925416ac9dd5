package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.model.Subjob;
import java.util.Optional;

/**
 * A subjob section read on its own, before the checks that span sections (unique labels, one
 * wan_group and uplink per site). {@code durocIndex} is {@code GLOBUS_DUROC_SUBJOB_INDEX} if given.
 */
record SubjobDraft(Subjob subjob, AttributeTable section, Optional<Integer> durocIndex) {

    /** Whether this subjob's site may differ from the one the file meant, because a relation naming it was dropped. */
    boolean siteUncertain() {
        return section.mayLack("site") || section.mayLack(SubjobSectionReader.CONTACT) || section.mayLack("label");
    }
}
