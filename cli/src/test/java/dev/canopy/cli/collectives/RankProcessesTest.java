package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RankProcessesTest {

    @Test
    void everyExitStatusOfARankIsExplained() {
        assertThat(RankProcesses.meaning(1)).contains("the program failed");
        assertThat(RankProcesses.meaning(2)).contains("could not be run");
        assertThat(RankProcesses.meaning(3)).contains("out of memory");
        assertThat(RankProcesses.meaning(4)).contains("launcher");
        assertThat(RankProcesses.meaning(137)).contains("signal 9").contains("SIGKILL");
        assertThat(RankProcesses.meaning(143)).contains("signal 15 (SIGTERM)");
        assertThat(RankProcesses.meaning(42)).isEqualTo("exit status 42 of the program");
    }
}
