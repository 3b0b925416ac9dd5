package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Keyword;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.internal.rsl.Conjunction;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.internal.rsl.Integrity;
import dev.canopy.gridconfig.internal.rsl.Parser;
import dev.canopy.gridconfig.internal.rsl.Relation;
import dev.canopy.gridconfig.internal.rsl.RslDocument;
import dev.canopy.gridconfig.internal.rsl.ValueExpr;
import dev.canopy.gridconfig.model.GridModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the text of a level file into a {@link ParseResult}: parse, substitute variables (the grid
 * section's first, since they apply to the whole file), classify each section, read it, check
 * across sections. Problems are collected all the way through, so one run reports all of them.
 */
public final class GridFileReader {

    private final Diagnostics diagnostics;
    private final GridSectionReader gridReader;
    private final SubjobSectionReader subjobReader;
    private final LinkSectionReader linkReader;
    private final SectionClassifier classifier;

    private GridFileReader(String file) {
        this.diagnostics = new Diagnostics(file);
        this.gridReader = new GridSectionReader(diagnostics);
        this.subjobReader = new SubjobSectionReader(diagnostics);
        this.linkReader = new LinkSectionReader(diagnostics);
        this.classifier = new SectionClassifier(diagnostics);
    }

    /**
     * Reads {@code text}; {@code file} names it in diagnostics, and its base name without extension is
     * the grid's name when the file gives none.
     */
    public static ParseResult read(String text, String file) {
        return new GridFileReader(file).run(text, defaultName(file));
    }

    private ParseResult run(String text, String defaultName) {
        RslDocument document = Parser.parse(text, diagnostics);
        Optional<Conjunction> gridSection = document.sections().stream().filter(GridFileReader::declaresGrid).findFirst();
        Optional<ResolvedSection> resolvedGrid = gridSection.map(s -> SectionResolver.resolve(s, Map.of(), diagnostics));
        Map<String, String> fileVariables = resolvedGrid.map(ResolvedSection::variables).orElse(Map.of());

        Integrity sectionKinds = Integrity.COMPLETE;
        Optional<AttributeTable> grid = Optional.empty();
        List<SubjobDraft> subjobs = new ArrayList<>();
        List<AttributeTable> links = new ArrayList<>();
        for (Conjunction section : document.sections()) {
            ResolvedSection resolved = gridSection.filter(g -> g == section).flatMap(g -> resolvedGrid)
                    .orElseGet(() -> SectionResolver.resolve(section, fileVariables, diagnostics));
            Optional<SectionKind> kind = classifier.classify(resolved);
            if (kind.isEmpty() || resolved.damage().mayLack("type")) {
                sectionKinds = Integrity.DAMAGED;
            }
            if (kind.isEmpty()) {
                continue;
            }
            AttributeTable table = AttributeTable.of(resolved, kind.get(), diagnostics);
            switch (kind.get()) {
                case GRID -> {
                    if (grid.isPresent()) {
                        diagnostics.error(section.position(), "only one grid section is allowed; the first is at " + grid.get().position());
                    } else {
                        grid = Optional.of(table);
                    }
                }
                case SUBJOB -> subjobs.add(subjobReader.read(table, subjobs.size()));
                case LINK -> links.add(table);
            }
        }
        GridSettings settings = grid.map(gridReader::read).orElseGet(GridSettings::defaults);
        List<LinkDraft> linkDrafts = links.stream()
                .flatMap(table -> linkReader.read(table, settings.defaultRttMs()).stream()).toList();
        Optional<GridModel> model = new ModelAssembler(diagnostics)
                .assemble(settings.name().orElse(defaultName), settings, subjobs, linkDrafts, sectionKinds);
        return model.filter(m -> diagnostics.isEmpty()).map(ParseResult::valid)
                .orElseGet(() -> ParseResult.invalid(diagnostics.sorted(), diagnostics.count()));
    }

    /** Whether a section says {@code (type = grid)} in plain words, before any variable is known. */
    private static boolean declaresGrid(Conjunction section) {
        for (Relation relation : section.relations()) {
            if (Keyword.canonical(relation.attribute()).equals("type") && relation.values().size() == 1
                    && relation.values().get(0) instanceof ValueExpr.Literal literal
                    && SectionKind.fromConfigName(literal.text()).filter(k -> k == SectionKind.GRID).isPresent()) {
                return true;
            }
        }
        return false;
    }

    private static String defaultName(String file) {
        String base = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
        int dot = base.lastIndexOf('.');
        String stem = dot > 0 ? base.substring(0, dot) : base;
        return stem.isBlank() ? "grid" : stem;
    }
}
