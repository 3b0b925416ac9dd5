package dev.canopy.cli.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AgentMessageTest {

    @Test
    void everyMessageReadsBackAsItWasSent() {
        for (AgentMessage message : new AgentMessage[] {new AgentMessage.Started("n1.lyon", "10.0.0.1"),
            new AgentMessage.Output(2, "a line\twith a tab is kept as it was sent"), new AgentMessage.Exited(3, 143),
            new AgentMessage.Unreported(1, 255),
            new AgentMessage.Problem("n2", "ssh: connect to host n2 port 22: Connection refused"),
            new AgentMessage.Lost("n2", 255)}) {
            assertThat(AgentMessage.parse(message.encode(), 4)).isEqualTo(message);
        }
    }

    @Test
    void outputCannotReachTheLaunchersTerminalWithControlCharacters() {
        AgentMessage.Output sent = AgentMessage.Output.of(0, "red \u001b[31m text\u0007");
        assertThat(sent.text()).isEqualTo("red ?[31m text?");
        assertThat(AgentMessage.parse("out\t0\t\u001b]0;title\u0007", 1)).isEqualTo(new AgentMessage.Output(0, "?]0;title?"));
        assertThat(AgentMessage.Output.of(0, "x".repeat(200_000)).encode().length()).isLessThanOrEqualTo(AgentMessage.MAX_LINE_CHARS);
    }

    @Test
    void linesThatAreNotMessagesOfThisJobAreRefusedNamingWhy() {
        assertThatThrownBy(() -> AgentMessage.parse("exit\t4\t0", 4)).hasMessageContaining("not a process of this job (0 to 3)");
        assertThatThrownBy(() -> AgentMessage.parse("exit\t-1\t0", 4)).hasMessageContaining("not a process");
        assertThatThrownBy(() -> AgentMessage.parse("exit\t1\t256", 4)).hasMessageContaining("not an exit status");
        assertThatThrownBy(() -> AgentMessage.parse("exit\t1\tzero", 4)).hasMessageContaining("not an exit status");
        assertThatThrownBy(() -> AgentMessage.parse("started\t-oProxyCommand=x\t10.0.0.1", 4))
                .hasMessageContaining("not a host name");
        assertThatThrownBy(() -> AgentMessage.parse("started\tn1\t$(reboot)", 4)).hasMessageContaining("not an IP address");
        assertThatThrownBy(() -> AgentMessage.parse("hello", 4)).hasMessageContaining("not a launch agent line");
        assertThatThrownBy(() -> AgentMessage.parse("reboot\t1\t2", 4)).hasMessageContaining("not a launch agent line");
        assertThatThrownBy(() -> AgentMessage.parse("out\t0\t" + "x".repeat(AgentMessage.MAX_LINE_CHARS), 4))
                .hasMessageContaining("characters (at most");
    }
}
