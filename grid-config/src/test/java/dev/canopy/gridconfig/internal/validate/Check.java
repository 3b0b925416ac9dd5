package dev.canopy.gridconfig.internal.validate;

import dev.canopy.gridconfig.Diagnostic;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.ParseResult;
import dev.canopy.gridconfig.model.GridModel;
import java.util.List;

/** Reads level-file text in tests: the errors as the user sees them, or the model of a file that must be valid. */
final class Check {

    static final String FILE = "t.rsl";

    private Check() {
    }

    static List<String> errors(String text) {
        return GridConfigs.parse(text, FILE).diagnostics().stream().map(Diagnostic::format).toList();
    }

    static GridModel model(String text) {
        ParseResult result = GridConfigs.parse(text, FILE);
        return result.orElseThrow();
    }

    /** A file of one subjob section plus {@code more} sections. */
    static String withSubjob(String subjobRelations, String... more) {
        return "+\n( &(type = subjob) " + subjobRelations + " )\n" + String.join("\n", more) + "\n";
    }
}
