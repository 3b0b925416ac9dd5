package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.cli.CanopyMain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's "On a real cluster" recipe and docs/deployment.md's "canopy launch over ssh", followed word for
 * word: their commands are read from the files (the first {@code bash} block of each section) and run by bash on
 * the login host of {@link SshHosts}, one after the other in one home directory, with the
 * README's own {@code demo.Sums} (its first Java block) compiled into {@code ~/demo}. What the test supplies is
 * what a user has: a {@code hosts} file, {@code canopy} on the PATH, and an ssh set up for the hosts (here a
 * wrapper that passes the fixture's keys, standing in for {@code ~/.ssh/config}).
 */
@Tag("multiprocess")
@Timeout(400)
class ReadmeClusterRecipeTest {

    private static final Path README = Path.of("..", "README.md");
    private static final Path DEPLOYMENT = Path.of("..", "docs", "deployment.md");

    @Test
    void theClusterRecipesOfTheReadmeAndTheDeploymentGuideRunAsWritten() throws Exception {
        Optional<String> unavailable = SshHosts.unavailableReason();
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> "skipped: " + unavailable.orElseThrow());
        String readme = Files.readString(README);
        String recipe = block(section(readme, "## On a real cluster"), "bash");
        String guide = block(section(Files.readString(DEPLOYMENT), "## canopy launch over ssh"), "bash");
        assertThat(guide).contains("canopy launch");
        String sums = block(readme, "java");
        assertThat(recipe).contains("canopy launch");
        assertThat(sums).contains("class Sums");

        try (SshHosts hosts = SshHosts.create(3)) {
            Path home = Files.createDirectory(hosts.directory().resolve("home"));
            compile(sums, Files.createDirectory(home.resolve("demo")));
            Files.writeString(home.resolve("hosts"), SshHosts.address(1) + " slots=2\n" + SshHosts.address(2)
                    + " slots=1\n" + SshHosts.address(3) + " slots=1\n");
            Path bin = Files.createDirectory(hosts.directory().resolve("bin"));
            script(bin.resolve("canopy"), "exec " + Path.of(System.getProperty("java.home"), "bin", "java")
                    + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp '" + System.getProperty("java.class.path") + "' "
                    + CanopyMain.class.getName() + " \"$@\"");
            script(bin.resolve("ssh"), "exec /usr/bin/ssh " + hosts.sshArguments() + " \"$@\"");

            String readmeOutput = runAsUser(hosts, "readme", recipe, home, bin);
            assertThat(readmeOutput).contains("grid.rsl: grid \"hosts\", 4 processes on 3 hosts");
            String guideOutput = runAsUser(hosts, "guide", guide, home, bin);
            for (String printed : List.of(readmeOutput, guideOutput)) {
                IntStream.range(0, 4).forEach(rank -> assertThat(printed)
                        .contains("[rank " + rank + "] rank " + rank + ": [6.0, 4.0]"));
            }
        }
    }

    /** Runs {@code commands} with bash on the login host, as a user would in {@code home}; returns what it printed. */
    private static String runAsUser(SshHosts hosts, String name, String commands, Path home, Path bin) throws Exception {
        Path output = hosts.directory().resolve(name + ".out");
        ProcessBuilder bash = hosts.exec(0, List.of("bash", "-euo", "pipefail", "-c", commands))
                .directory(home.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        bash.environment().put("HOME", home.toString());
        bash.environment().put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        bash.environment().put("CANOPY_JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k -Xmx160m");
        bash.environment().remove("CANOPY_ZK");
        Process run = bash.start();
        try {
            assertThat(run.waitFor(Duration.ofSeconds(180).toMillis(), TimeUnit.MILLISECONDS))
                    .as(name + ":\n" + SshHosts.read(output)).isTrue();
            String printed = SshHosts.read(output);
            System.out.println(name + ":\n" + printed);
            assertThat(run.exitValue()).as(name + ":\n" + printed).isZero();
            return printed;
        } finally {
            run.destroyForcibly();
        }
    }

    /** The text of the README from {@code heading} to the next heading of the same level. */
    private static String section(String readme, String heading) {
        int start = readme.indexOf(heading);
        assertThat(start).as("README section %s", heading).isNotNegative();
        int end = readme.indexOf("\n## ", start + heading.length());
        return end < 0 ? readme.substring(start) : readme.substring(start, end);
    }

    /** The first fenced block of {@code language} in {@code text}. */
    private static String block(String text, String language) {
        Matcher block = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(text);
        assertThat(block.find()).as("a ```%s block", language).isTrue();
        return block.group(1);
    }

    private static void compile(String source, Path classes) throws IOException {
        Path file = Files.createDirectories(classes.resolveSibling("demo-src").resolve("demo")).resolve("Sums.java");
        Files.writeString(file, source, StandardCharsets.UTF_8);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK's compiler").isNotNull();
        int status = javac.run(null, null, null, "-cp", System.getProperty("java.class.path"), "-d", classes.toString(),
                file.toString());
        assertThat(status).as("javac of the README's Sums").isZero();
    }

    private static void script(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    }
}
