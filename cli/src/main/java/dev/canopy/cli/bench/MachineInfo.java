package dev.canopy.cli.bench;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.Stream;

/** Where and when a benchmark ran, for the README table. */
public record MachineInfo(String date, int cpus, String cpuModel, String java) {

    public static MachineInfo current() {
        return new MachineInfo(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                Runtime.getRuntime().availableProcessors(), readCpuModel(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }

    public JsonObject toJson() {
        return new JsonObject().put("date", date).put("nproc", cpus).put("cpu", cpuModel).put("java", java);
    }

    @Override
    public String toString() {
        return date + ", " + cpus + " CPUs (" + cpuModel + "), " + java;
    }

    private static String readCpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(line -> line.startsWith("model name")).findFirst()
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .orElse(System.getProperty("os.arch"));
        } catch (IOException | RuntimeException e) {
            return System.getProperty("os.arch");
        }
    }
}
