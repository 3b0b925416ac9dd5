package dev.canopy.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SequencerTest {

    @Test
    void aCollectiveWhoseTreeIsStillPlannedHoldsBackTheOnesStartedAfterIt() {
        Sequencer sequencer = new Sequencer();
        List<String> begun = new ArrayList<>();
        Promise<String> slowTree = Promise.promise();

        Future<String> first = sequencer.inTurn(() -> slowTree.future()).onSuccess(begun::add);
        Future<String> second = sequencer.inTurn(() -> Future.succeededFuture("known tree")).onSuccess(begun::add);
        assertThat(begun).as("the second waits for the first's tree").isEmpty();

        slowTree.complete("planned tree");
        assertThat(begun).containsExactly("planned tree", "known tree");
        assertThat(first.succeeded() && second.succeeded()).isTrue();
    }

    @Test
    void aFailedTurnStillLetsTheNextOneGo() {
        Sequencer sequencer = new Sequencer();
        Future<String> failed = sequencer.inTurn(() -> Future.failedFuture(new IllegalStateException("no tree")));
        Future<String> next = sequencer.inTurn(() -> Future.succeededFuture("next"));

        assertThat(failed.failed()).isTrue();
        assertThat(next.result()).isEqualTo("next");
    }
}
