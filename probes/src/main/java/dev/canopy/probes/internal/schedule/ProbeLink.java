package dev.canopy.probes.internal.schedule;

import dev.canopy.core.node.Member;
import dev.canopy.probes.internal.Link;

/**
 * A link of the probe plan. Only its {@code owner} sends probes on it (the other end answers), which is the
 * token that keeps two probes off one link at a time; the owner is a function of the two ends alone, so both
 * agree on it even while they disagree about the rest of the membership.
 */
public record ProbeLink(Link link, Member owner, Member peer, LinkRole role) {

    static ProbeLink between(Member one, Member other, LinkRole role) {
        Link link = Link.between(one.id(), other.id());
        // Hash parity spreads ownership evenly without favouring low or high ids.
        boolean lowerOwns = ((link.a().value() + "|" + link.b().value()).hashCode() & 1) == 0;
        Member low = link.a().equals(one.id()) ? one : other;
        Member high = low == one ? other : one;
        return lowerOwns ? new ProbeLink(link, low, high, role) : new ProbeLink(link, high, low, role);
    }
}
