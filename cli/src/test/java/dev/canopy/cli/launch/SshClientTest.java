package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SshClientTest {

    @Test
    void theCommandHasNoTerminalNoPasswordPromptAndTheOptionsBeforeTheHost() {
        SshClient client = new SshClient("/usr/bin/ssh", Optional.of("grid"), OptionalInt.of(2222), List.of("-i", "/k"));
        assertThat(client.command("n1.lyon", "exec 'java'")).containsExactly("/usr/bin/ssh", "-T", "-o", "BatchMode=yes",
                "-i", "/k", "-l", "grid", "-p", "2222", "n1.lyon", "exec 'java'");
    }

    @Test
    void nothingThatSshWouldReadAsAnOptionPassesForAHostOrUser() {
        SshClient client = SshClient.plain();
        assertThatThrownBy(() -> client.command("-oProxyCommand=touch /tmp/x", "true")).hasMessageContaining("not a host name");
        assertThatThrownBy(() -> new SshClient("ssh", Optional.of("-oProxyCommand=x"), OptionalInt.empty(), List.of()))
                .hasMessageContaining("--ssh-user -oProxyCommand=x is not a user name");
        assertThatThrownBy(() -> new SshClient("ssh", Optional.empty(), OptionalInt.of(70000), List.of()))
                .hasMessageContaining("--ssh-port 70000 is not a port (1-65535)");
        assertThatThrownBy(() -> new SshClient("-x", Optional.empty(), OptionalInt.empty(), List.of()))
                .hasMessageContaining("is not a program");
    }

    @Test
    void shellWordsReachTheRemoteCommandUnexpanded() {
        assertThat(ShellWords.exec(List.of("/opt/my java/bin/java", "-Dx=$HOME", "it's"))).isEqualTo(
                "exec '/opt/my java/bin/java' '-Dx=$HOME' 'it'\\''s'");
    }
}
