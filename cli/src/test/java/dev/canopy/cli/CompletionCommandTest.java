package dev.canopy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code canopy completion}: the generated script, loaded into a real bash, completes commands and options. */
class CompletionCommandTest {

    @TempDir
    Path directory;

    private Path script;

    @BeforeEach
    void script() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "skipped: no /bin/bash");
        StringWriter out = new StringWriter();
        int status = CanopyMain.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "completion");
        assertThat(status).isZero();
        script = Files.writeString(directory.resolve("canopy-completion.bash"), out.toString());
    }

    @Test
    void subcommandsCompleteFromTheirFirstLetters() throws Exception {
        assertThat(complete("canopy", "la")).containsExactly("launch");
        assertThat(complete("canopy", "co")).contains("config", "completion");
        assertThat(complete("canopy", "config", "from-")).containsExactlyInAnyOrder("from-hostfile", "from-slurm");
    }

    @Test
    void optionsOfASubcommandCompleteAndHiddenCommandsDoNot() throws Exception {
        assertThat(complete("canopy", "launch", "--zk")).contains("--zk", "--zk-tls");
        assertThat(complete("canopy", "launch", "--ssh-")).contains("--ssh-user", "--ssh-port", "--ssh-args",
                "--ssh-fanout");
        assertThat(complete("canopy", "launch-")).isEmpty();
    }

    /** What bash offers for the last of {@code words}, as it would after a TAB, from the generated script. */
    private List<String> complete(String... words) throws Exception {
        String line = String.join(" ", words);
        String commands = "source " + script + "\n"
                + "COMP_WORDS=(" + line + "); COMP_CWORD=" + (words.length - 1) + "; COMP_LINE='" + line + "'; COMP_POINT="
                + line.length() + "\n"
                + "function=$(complete -p canopy | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')\n"
                + "\"$function\" canopy '" + words[words.length - 1] + "' '" + words[words.length - 2] + "'\n"
                + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        Process bash = new ProcessBuilder("/bin/bash", "--norc", "--noprofile", "-c", commands).redirectErrorStream(true)
                .start();
        String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).as(output).isTrue();
        assertThat(bash.exitValue()).as(output).isZero();
        return output.lines().map(String::strip).filter(text -> !text.isEmpty()).toList();
    }
}
