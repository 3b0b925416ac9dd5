package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
import dev.canopy.core.testing.ManualClock;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code auto}'s choice and its refresh from observed times, deterministically: an injected calibrated model, a
 * hand-moved clock per member, and the allgather of the members' reports done by hand (the real one runs in
 * {@link GroupCollectivesTest}, whose operations pass several refresh points).
 */
class AutoPolicyTest {

    /** static 300 us fixed; tree 100 us fixed; dynamic far dearer; all 0.001 us/B. */
    private static final PolicyCostModel CALIBRATED = new PolicyCostModel(5, Map.of(
            GroupPolicy.STATIC, new PolicyCostModel.Line(300, 0.001),
            GroupPolicy.DYNAMIC, new PolicyCostModel.Line(5_000, 0.001),
            GroupPolicy.TREE, new PolicyCostModel.Line(100, 0.001)));

    private final List<ManualClock> clocks = List.of(new ManualClock(), new ManualClock());
    private final List<AutoPolicy> members = List.of(new AutoPolicy(CALIBRATED, clocks.get(0)),
            new AutoPolicy(CALIBRATED, clocks.get(1)));
    private final List<Buffer> reports = new ArrayList<>();
    private final List<Promise<List<Buffer>>> waiting = new ArrayList<>();

    @Test
    void choosesTheCheapestByTheCalibrationUntilObservationsDisagree() {
        assertThat(CALIBRATED.choose(5, 16)).isEqualTo(GroupPolicy.TREE);
        // Every tree call takes 10 times its prediction at member 1 (member 0, the root, returns sooner).
        for (int call = 1; call < AutoPolicy.REFRESH_EVERY; call++) {
            List<AutoPolicy.Ticket> tickets = nextOnBoth();
            assertThat(chosen(tickets)).containsOnly(GroupPolicy.TREE);
            observe(tickets, GroupPolicy.TREE, 200, 1_000);
        }
        // Ticket 16 refreshes from calls [-16, 0): nothing yet, so still the calibration.
        List<AutoPolicy.Ticket> first = nextOnBoth();
        assertThat(chosen(first)).containsOnly(GroupPolicy.TREE);
        for (int call = AutoPolicy.REFRESH_EVERY + 1; call < 2 * AutoPolicy.REFRESH_EVERY; call++) {
            nextOnBoth();
        }
        // Ticket 32 folds calls 1..15: tree now costs ~1,000 us, static (never observed) stays at 300.
        List<AutoPolicy.Ticket> second = nextOnBoth();
        assertThat(chosen(second)).containsOnly(GroupPolicy.STATIC);
        assertThat(members.get(0).current()).isEqualTo(members.get(1).current());
        assertThat(members.get(0).current().micros(GroupPolicy.TREE, 5, 16)).isCloseTo(1_000, offset(1.0));
        assertThat(members.get(0).current().micros(GroupPolicy.STATIC, 5, 16))
                .isEqualTo(CALIBRATED.micros(GroupPolicy.STATIC, 5, 16));
    }

    @Test
    void aFewObservationsDoNotMoveTheModelAndOutliersAreTrimmed() {
        for (int call = 1; call <= 2 * AutoPolicy.REFRESH_EVERY; call++) {
            List<AutoPolicy.Ticket> tickets = nextOnBoth();
            if (call == 1 || call == 2) { // two observations only: fewer than MIN_SAMPLES
                observe(tickets, GroupPolicy.TREE, 0, 1_000_000);
            }
        }
        assertThat(members.get(0).current()).isEqualTo(CALIBRATED);
        for (int call = 1; call <= 2 * AutoPolicy.REFRESH_EVERY; call++) {
            List<AutoPolicy.Ticket> tickets = nextOnBoth();
            if (call < AutoPolicy.REFRESH_EVERY) {
                // As calibrated, but one call in 15 a thousand times slower: the trimmed mean ignores it.
                observe(tickets, GroupPolicy.TREE, 0, call == 7 ? 100_000 : 100);
            }
        }
        assertThat(members.get(1).current().choose(5, 16)).isEqualTo(GroupPolicy.TREE);
        assertThat(members.get(1).current().micros(GroupPolicy.TREE, 5, 16)).isLessThan(2 * 100);
    }

    @Test
    void eachSideOfTheCalibrationIsCorrectedByTheObservationsNearIt() {
        long large = PolicyCalibration.LARGE_BYTES;
        double calibratedLarge = CALIBRATED.micros(GroupPolicy.STATIC, 5, large);
        for (int call = 1; call <= 2 * AutoPolicy.REFRESH_EVERY; call++) {
            List<AutoPolicy.Ticket> tickets = nextOnBoth();
            if (call < AutoPolicy.REFRESH_EVERY) {
                // At 16 B per target static costs what the calibration said, at 16 KiB twice as much.
                boolean big = call % 2 == 1;
                observe(tickets, GroupPolicy.STATIC, big ? large : 16, 0, big ? 2 * calibratedLarge
                        : CALIBRATED.micros(GroupPolicy.STATIC, 5, 16));
            }
        }
        PolicyCostModel refreshed = members.get(0).current();
        assertThat(refreshed.micros(GroupPolicy.STATIC, 5, 16)).isCloseTo(CALIBRATED.micros(GroupPolicy.STATIC, 5, 16),
                offset(1.0));
        assertThat(refreshed.micros(GroupPolicy.STATIC, 5, large)).isCloseTo(2 * calibratedLarge, offset(1.0));
        assertThat(refreshed.lines().get(GroupPolicy.TREE)).as("not observed").isEqualTo(
                CALIBRATED.lines().get(GroupPolicy.TREE));
    }

    @Test
    void aMalformedReportFailsTheRefreshNamingTheRank() {
        for (int call = 1; call < AutoPolicy.REFRESH_EVERY; call++) {
            members.get(0).next(this::gatherAlone);
        }
        reports.add(ValueCodec.encode(new double[] {3, GroupPolicy.TREE.ordinal(), 5, 16})); // 4 numbers, not 5
        Future<PolicyCostModel> model = members.get(0).next(report -> Future.succeededFuture(List.of(report,
                reports.get(0)))).model();
        assertThat(model.failed()).isTrue();
        assertThat(model.cause()).isInstanceOf(MalformedMessageException.class).hasMessageContaining("rank 1");
        assertThatThrownBy(() -> PolicyCostModel.decode(new double[] {5, -1, 0, 0, 0, 0, 0}))
                .isInstanceOf(MalformedMessageException.class);
    }

    private Future<List<Buffer>> gatherAlone(Buffer report) {
        return Future.succeededFuture(List.of(report, ValueCodec.encode(new double[0])));
    }

    /** Both members take their next ticket; a refresh's allgather completes once both reported. */
    private List<AutoPolicy.Ticket> nextOnBoth() {
        List<AutoPolicy.Ticket> tickets = new ArrayList<>();
        for (AutoPolicy member : members) {
            tickets.add(member.next(report -> {
                reports.add(report);
                Promise<List<Buffer>> gathered = Promise.promise();
                waiting.add(gathered);
                if (reports.size() == members.size()) {
                    List<Buffer> all = List.copyOf(reports);
                    reports.clear();
                    waiting.forEach(promise -> promise.complete(all));
                    waiting.clear();
                }
                return gathered.future();
            }));
        }
        return tickets;
    }

    private static List<GroupPolicy> chosen(List<AutoPolicy.Ticket> tickets) {
        return tickets.stream().map(ticket -> ticket.model().result().choose(5, 16)).toList();
    }

    /** The call of {@code tickets} took {@code rootMicros} at member 0 and {@code targetMicros} at member 1. */
    private void observe(List<AutoPolicy.Ticket> tickets, GroupPolicy policy, long rootMicros, long targetMicros) {
        observe(tickets, policy, 16, rootMicros, targetMicros);
    }

    private void observe(List<AutoPolicy.Ticket> tickets, GroupPolicy policy, long bytesPerTarget, double rootMicros,
            double targetMicros) {
        double[] took = {rootMicros, targetMicros};
        for (int member = 0; member < 2; member++) {
            long start = members.get(member).now();
            clocks.get(member).advanceNanos(Math.round(took[member] * 1_000));
            members.get(member).observe(tickets.get(member).index(), policy, 5, bytesPerTarget, start);
        }
    }
}
