package dev.canopy.dynamic.spawn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Counts the live child JVMs whose starter label begins with a pool's name, on the whole machine (orphans
 * included), from {@code /proc/<pid>/cmdline}: the JDK's {@code ProcessHandle.Info} gives up on a test class path.
 */
final class ChildCount {

    private ChildCount() {
    }

    static long of(String pool) {
        String marker = "-Dcanopy.starter=" + pool + "/";
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive).filter(process -> {
            try {
                return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                        StandardCharsets.UTF_8).contains(marker);
            } catch (IOException gone) {
                return false;
            }
        }).count();
    }
}
