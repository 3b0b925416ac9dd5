package dev.canopy.cli.launch;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The program every process of a launch runs: its class, where its classes are, the arguments its {@code main}
 * gets (exactly as given: they travel in the plan's JSON, never through a shell), and whether it follows live plans.
 */
public record LaunchProgram(String className, Optional<String> classpath, List<String> arguments, boolean livePlans) {

    public LaunchProgram {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(classpath, "classpath");
        arguments = List.copyOf(arguments);
    }
}
