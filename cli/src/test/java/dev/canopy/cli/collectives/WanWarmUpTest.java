package dev.canopy.cli.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.run.EmulatedGrid;
import dev.canopy.core.comm.Communicator;
import dev.canopy.core.comm.Message;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class WanWarmUpTest {

    /** Processes 0 and 1 at alpha, 2 at beta, 3 at gamma. */
    private static final String THREE_SITES = """
            +
            ( &(type = subjob) (label = "alpha") (count = 2) )
            ( &(type = subjob) (label = "beta") (count = 1) )
            ( &(type = subjob) (label = "gamma") (count = 1) )
            ( &(type = link) (between = "alpha" "beta") (rtt_ms = 10) )
            ( &(type = link) (between = "alpha" "gamma") (rtt_ms = 12) )
            ( &(type = link) (between = "beta" "gamma") (rtt_ms = 14) )
            """;

    @Test
    void everyProcessExchangesTheBytesWithEveryProcessAtAnotherSiteAndLeavesWorldsMessagesAlone() {
        GridModel model = GridConfigs.parse(THREE_SITES, "warm.rsl").orElseThrow();
        try (EmulatedGrid grid = EmulatedGrid.start(model, "cli-warm-wan", 5)) {
            List<Communicator> world = grid.world();
            // a program message already on its way must reach the program, not the warm-up (same tag, WORLD's context)
            Future<Void> early = world.get(0).send(3, 0, Buffer.buffer("program"));
            List<WanWarmUp.Result> results = awaitAll(world.stream().map(c -> WanWarmUp.run(c, 65536)).toList());

            for (Communicator communicator : world) {
                String site = communicator.member(communicator.rank()).coordinates().site();
                int remote = (int) communicator.members().stream().filter(m -> !m.coordinates().site().equals(site)).count();
                assertThat(results.get(communicator.rank())).as("rank %d at %s", communicator.rank(), site)
                        .isEqualTo(new WanWarmUp.Result(remote, remote * 65536L));
            }
            assertThat(results.stream().mapToInt(WanWarmUp.Result::remoteProcesses)).containsExactly(2, 2, 3, 3);
            Blocking.await(early);
            Message program = Blocking.await(world.get(3).receive(0, 0));
            assertThat(program.payload().toString()).isEqualTo("program");
        }
    }

    @Test
    void processesGivenDifferentSizesFailNamingTheOptionInsteadOfHanging() {
        GridModel model = GridConfigs.parse(THREE_SITES, "warm-mismatch.rsl").orElseThrow();
        try (EmulatedGrid grid = EmulatedGrid.start(model, "cli-warm-wan-mismatch", 6)) {
            List<Communicator> world = grid.world();
            List<Future<WanWarmUp.Result>> runs = new ArrayList<>();
            for (Communicator communicator : world) {
                runs.add(WanWarmUp.run(communicator, communicator.rank() == 2 ? 2048 : 1024));
            }
            // beta's process receives 1024 bytes from everyone else, and everyone else 2048 from it
            for (Future<WanWarmUp.Result> run : runs) {
                assertThatThrownBy(() -> Blocking.await(run)).hasMessageContaining("give every process the same --warm-wan");
            }
        }
    }

    @Test
    void sizesOutsideTheRangeAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> WanWarmUp.requireValid(-1)).hasMessageContaining("--warm-wan -1");
        assertThatThrownBy(() -> WanWarmUp.requireValid(WanWarmUp.MAX_BYTES + 1)).hasMessageContaining("--warm-wan");
        WanWarmUp.requireValid(0);
        WanWarmUp.requireValid(WanWarmUp.MAX_BYTES);
    }

    private static <T> List<T> awaitAll(List<Future<T>> futures) {
        return futures.stream().map(Blocking::await).toList();
    }
}
