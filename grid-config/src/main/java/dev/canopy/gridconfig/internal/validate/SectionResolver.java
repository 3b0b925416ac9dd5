package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Excerpt;
import dev.canopy.gridconfig.Keyword;
import dev.canopy.gridconfig.internal.rsl.Conjunction;
import dev.canopy.gridconfig.internal.rsl.Damage;
import dev.canopy.gridconfig.internal.rsl.Diagnostics;
import dev.canopy.gridconfig.internal.rsl.Operator;
import dev.canopy.gridconfig.internal.rsl.Relation;
import dev.canopy.gridconfig.internal.rsl.ValueExpr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Substitutes variables and joins {@code #} concatenations in one section. An
 * {@code rsl_substitution} defines variables for the relations after it; a relation whose value
 * cannot be resolved is reported, dropped, and recorded in the section's {@link Damage}.
 */
final class SectionResolver {

    static final String SUBSTITUTION = "rsl_substitution";
    /** Joining values longer than this is surely a runaway substitution, e.g. $(A)#$(A) redefining A. */
    static final int MAX_TEXT = 65_536;

    private final Diagnostics diagnostics;
    private final Map<String, String> variables;
    private Damage damage;

    private SectionResolver(Diagnostics diagnostics, Map<String, String> inherited, Damage damage) {
        this.diagnostics = diagnostics;
        this.variables = new HashMap<>(inherited);
        this.damage = damage;
    }

    /** Resolves {@code section} with the variables {@code inherited} from the grid section. */
    static ResolvedSection resolve(Conjunction section, Map<String, String> inherited, Diagnostics diagnostics) {
        return new SectionResolver(diagnostics, inherited, section.damage()).run(section);
    }

    private ResolvedSection run(Conjunction section) {
        List<Attribute> attributes = new ArrayList<>();
        for (Relation relation : section.relations()) {
            if (Keyword.canonical(relation.attribute()).equals(Keyword.canonical(SUBSTITUTION))) {
                define(relation);
            } else {
                resolveAll(relation.values()).ifPresentOrElse(
                        values -> attributes.add(new Attribute(relation.attribute(), relation.attributePosition(),
                                relation.operator(), relation.operatorPosition(), values)),
                        () -> damage = damage.withAttribute(relation.attribute()));
            }
        }
        return new ResolvedSection(section.position(), damage, attributes, variables);
    }

    /** {@code (rsl_substitution = (NAME value) ...)}: each pair defines or redefines one variable. */
    private void define(Relation relation) {
        if (relation.operator() != Operator.EQ) {
            diagnostics.error(relation.operatorPosition(), "attribute \"" + SUBSTITUTION + "\" takes \"=\", not \""
                    + relation.operator().symbol() + "\"");
            return;
        }
        for (ValueExpr value : relation.values()) {
            if (!(value instanceof ValueExpr.Sequence pair) || pair.items().size() != 2
                    || !(pair.items().get(0) instanceof ValueExpr.Literal name)) {
                diagnostics.error(value.position(), SUBSTITUTION + " takes pairs (NAME value), e.g. (rsl_substitution = (HOME \"/home/me\"))");
                continue;
            }
            resolve(pair.items().get(1)).ifPresent(resolved -> {
                if (resolved instanceof Resolved.Text text) {
                    variables.put(name.text(), text.text());
                } else {
                    diagnostics.error(resolved.position(), "variable " + Excerpt.quoted(name.text()) + " must have a plain value, not a list");
                }
            });
        }
    }

    private Optional<List<Resolved>> resolveAll(List<ValueExpr> values) {
        List<Resolved> resolved = new ArrayList<>();
        boolean complete = true;
        for (ValueExpr value : values) {
            Optional<Resolved> one = resolve(value);
            one.ifPresent(resolved::add);
            complete &= one.isPresent();
        }
        return complete ? Optional.of(resolved) : Optional.empty();
    }

    private Optional<Resolved> resolve(ValueExpr value) {
        if (value instanceof ValueExpr.Literal literal) {
            return Optional.of(new Resolved.Text(literal.position(), literal.text()));
        }
        if (value instanceof ValueExpr.Sequence sequence) {
            return resolveAll(sequence.items()).map(items -> new Resolved.Items(sequence.position(), items));
        }
        if (value instanceof ValueExpr.VariableRef ref) {
            String text = variables.get(ref.name());
            if (text == null) {
                String define = "define it with (rsl_substitution = (" + Excerpt.of(ref.name())
                        + " value)) in the grid section or earlier in this section";
                diagnostics.error(ref.position(), "undefined variable " + Excerpt.quoted(ref.name()),
                        SpellingHint.closest(ref.name(), variables.keySet()).or(() -> Optional.of(define)));
                return Optional.empty();
            }
            return Optional.of(new Resolved.Text(ref.position(), text));
        }
        return join((ValueExpr.Concatenation) value);
    }

    /** Joins the parts in one pass: no recursion over a long chain, no quadratic copying, at most {@link #MAX_TEXT} characters. */
    private Optional<Resolved> join(ValueExpr.Concatenation concatenation) {
        Optional<List<Resolved>> parts = resolveAll(concatenation.parts());
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder joined = new StringBuilder();
        for (Resolved part : parts.get()) {
            if (!(part instanceof Resolved.Text text)) {
                diagnostics.error(concatenation.position(), "'#' joins two plain values, not lists");
                return Optional.empty();
            }
            if (joined.length() + text.text().length() > MAX_TEXT) {
                diagnostics.error(concatenation.position(), "joined value is longer than " + MAX_TEXT + " characters");
                return Optional.empty();
            }
            joined.append(text.text());
        }
        return Optional.of(new Resolved.Text(concatenation.position(), joined.toString()));
    }
}
