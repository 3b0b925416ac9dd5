package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.model.Link;

/** A link section read on its own; {@code first} and {@code second} are where its two site names are written. */
record LinkDraft(Link link, Resolved.Text first, Resolved.Text second) {
}
