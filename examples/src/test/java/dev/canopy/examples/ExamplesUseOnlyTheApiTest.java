package dev.canopy.examples;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The examples are the model user program: they use Canopy through its api packages only (docs/library.md,
 * "The public surface"), never a package below an {@code internal} one, nor the applications' modules.
 */
@Timeout(60)
class ExamplesUseOnlyTheApiTest {

    @Test
    void theExamplesDependOnNoInternalPackage() {
        noClasses().that().resideInAPackage("dev.canopy.examples..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.canopy..internal..", "dev.canopy.cli..",
                        "dev.canopy.bench..", "dev.canopy.dashboard..")
                .because("a user's program needs only the api packages")
                .check(new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.canopy.examples"));
    }
}
