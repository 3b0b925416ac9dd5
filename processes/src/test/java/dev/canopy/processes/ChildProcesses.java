package dev.canopy.processes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds the live child JVMs of one starter label among every process of the machine (orphans included). Reads
 * {@code /proc/<pid>/cmdline}: the JDK's {@code ProcessHandle.Info} gives up on command lines as long as a test
 * class path.
 */
final class ChildProcesses {

    private ChildProcesses() {
    }

    static long count(String label) {
        return pids(label, "").size();
    }

    /** The pids of the live processes whose command line holds {@code -Dcanopy.starter=label} and {@code alsoHolding}. */
    static List<Long> pids(String label, String alsoHolding) {
        String marker = "-Dcanopy.starter=" + label + "\0";
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(process -> {
                    String commandLine = commandLine(process.pid());
                    return commandLine.contains(marker) && commandLine.contains(alsoHolding);
                })
                .map(ProcessHandle::pid)
                .toList();
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }
}
