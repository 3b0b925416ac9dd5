package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Keyword;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import java.util.List;
import java.util.Optional;

/**
 * Decides what a section is from its {@code type}; a section without one that has {@code count} or
 * {@code resourceManagerContact} is a subjob, as in MPICH-G2 files.
 */
final class SectionClassifier {

    private final Diagnostics diagnostics;
    private final ValueReader values;

    SectionClassifier(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
        this.values = new ValueReader(diagnostics);
    }

    /** The kind of {@code section}, or empty (reported unless the section lost relations to syntax errors). */
    Optional<SectionKind> classify(ResolvedSection section) {
        List<Attribute> types = section.attributes().stream().filter(a -> a.canonical().equals("type")).toList();
        if (types.isEmpty()) {
            boolean looksLikeSubjob = section.attributes().stream().map(Attribute::canonical)
                    .anyMatch(name -> name.equals("count") || name.equals(Keyword.canonical(SubjobSectionReader.CONTACT)));
            if (!looksLikeSubjob && !section.damage().mayLack("type") && !section.attributes().isEmpty()) {
                diagnostics.error(section.position(), "section has no type; add (type = subjob), (type = grid) or (type = link)");
            }
            return looksLikeSubjob ? Optional.of(SectionKind.SUBJOB) : Optional.empty();
        }
        return values.single(types.get(0)).flatMap(text -> values.keyword(text, "section type", SectionKind::fromConfigName,
                SectionKind.configNames()));
    }
}
