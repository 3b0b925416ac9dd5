package dev.canopy.collectives.internal.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.canopy.collectives.data.MalformedMessageException;
import dev.canopy.collectives.data.ValueCodec;
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

    /** static 300 us fixed; tree 100 us fixed at 5 targets, 400 at 20; dynamic far dearer; all 0.001 us/B. */
    private static final PolicyCostModel CALIBRATED = new PolicyCostModel(5, 20, Map.of(
            GroupPolicy.STATIC, same(new PolicyCostModel.Line(300, 0.001)),
            GroupPolicy.DYNAMIC, same(new PolicyCostModel.Line(5_000, 0.001)),
            GroupPolicy.TREE, new PolicyCostModel.Lines(new PolicyCostModel.Line(100, 0.001),
                    new PolicyCostModel.Line(400, 0.001))));
    private static final CallShape SMALL = CallShape.scatter(5, 16);

    private final List<AutoPolicy> members = List.of(new AutoPolicy(CALIBRATED), new AutoPolicy(CALIBRATED));
    private final List<Buffer> reports = new ArrayList<>();
    private final List<Promise<List<Buffer>>> waiting = new ArrayList<>();

    @Test
    void choosesTheCheapestByTheCalibrationUntilObservationsDisagree() {
        assertThat(CALIBRATED.choose(SMALL)).isEqualTo(GroupPolicy.TREE);
        // Every tree call takes 10 times its prediction at member 1 (member 0, the root, returns sooner).
        for (int call = 1; call < AutoPolicy.REFRESH_EVERY; call++) {
            List<AutoPolicy.Ticket> tickets = nextOnBoth();
            assertThat(chosen(tickets)).containsOnly(GroupPolicy.TREE);
            observe(tickets, GroupPolicy.TREE, 200, 1_000);
        }
        // Ticket 16 gathers calls [-16, 0): nothing yet; ticket 32 gathers calls 1..15 and adopts ticket 16's.
        for (int call = AutoPolicy.REFRESH_EVERY; call <= 2 * AutoPolicy.REFRESH_EVERY; call++) {
            assertThat(chosen(nextOnBoth())).containsOnly(GroupPolicy.TREE);
        }
        // Off the critical path: the refresh of calls 1..15 is folded (tree now ~1,000 us, static never observed
        // stays at 300) but no call chooses by it before the next refresh point adopts it.
        assertThat(members.get(0).current().micros(GroupPolicy.TREE, SMALL)).isCloseTo(1_000, offset(1.0));
        assertThat(members.get(0).current().micros(GroupPolicy.STATIC, SMALL))
                .isEqualTo(CALIBRATED.micros(GroupPolicy.STATIC, SMALL));
        for (int call = 2 * AutoPolicy.REFRESH_EVERY + 1; call < 3 * AutoPolicy.REFRESH_EVERY; call++) {
            assertThat(chosen(nextOnBoth())).containsOnly(GroupPolicy.TREE);
        }
        List<AutoPolicy.Ticket> adopted = nextOnBoth(); // ticket 48
        assertThat(chosen(adopted)).containsOnly(GroupPolicy.STATIC);
        assertThat(adopted.get(0).model().result()).isEqualTo(adopted.get(1).model().result());
    }

    @Test
    void aRememberedDecisionHoldsOnlyForItsModelAndShapeAndEveryDecisionIsCounted() {
        AutoPolicy member = members.get(0);
        CallShape big = CallShape.scatter(20, 16);
        PolicyCostModel treeDear = CALIBRATED.withCorrections(Map.of(GroupPolicy.TREE, Map.of(4, 10.0, 64 + 9, 10.0)));
        assertThat(member.choose(CALIBRATED, SMALL)).isEqualTo(GroupPolicy.TREE);
        assertThat(member.choose(CALIBRATED, SMALL)).isEqualTo(GroupPolicy.TREE);
        assertThat(member.choose(treeDear, SMALL)).as("a new model decides anew").isEqualTo(GroupPolicy.STATIC);
        assertThat(member.choose(treeDear, CallShape.scatter(5, 16))).as("an equal shape").isEqualTo(GroupPolicy.STATIC);
        // 20 targets x 16 B: tree 400 us against static 300 by the calibration, whatever was decided for 5 targets.
        assertThat(member.choose(CALIBRATED, big)).as("another shape decides anew").isEqualTo(GroupPolicy.STATIC);
        assertThat(member.choose(CALIBRATED, SMALL)).isEqualTo(GroupPolicy.TREE);
        assertThat(member.choices()).isEqualTo(Map.of(GroupPolicy.TREE, 3L, GroupPolicy.STATIC, 3L));
    }

    /**
     * Fed measurements: static always 300 us, the tree 288 or 312 us by turns (4 % either side), then 400. The
     * cheapest by each model alone flips with the noise; the sticky choice stays with its incumbent (the tree, the
     * calibration's choice) through the noise and moves to static once the tree is dearer beyond the margin, for good.
     */
    @Test
    void theChoiceFollowsARealChangeButDoesNotFlipOnNoise() {
        AutoPolicy member = members.get(0);
        int noisy = 12 * AutoPolicy.REFRESH_EVERY;
        List<GroupPolicy> sticky = new ArrayList<>();
        List<GroupPolicy> cheapest = new ArrayList<>();
        for (int call = 1; call <= noisy + 8 * AutoPolicy.REFRESH_EVERY; call++) {
            AutoPolicy.Ticket ticket = member.next(this::gatherAlone);
            PolicyCostModel model = ticket.model().result();
            sticky.add(member.choose(model, SMALL));
            cheapest.add(model.withIncumbents(Map.of()).choose(SMALL));
            int period = (call - 1) / AutoPolicy.REFRESH_EVERY;
            double tree = call > noisy ? 400 : period / 2 % 2 == 0 ? 288 : 312;
            member.observe(ticket.index(), call % 2 == 0 ? GroupPolicy.TREE : GroupPolicy.STATIC, SMALL,
                    call % 2 == 0 ? tree : 300);
        }
        List<GroupPolicy> duringNoise = sticky.subList(0, noisy + 2 * AutoPolicy.REFRESH_EVERY);
        assertThat(cheapest.subList(0, duringNoise.size())).as("the noise is real: alone, the model flips")
                .contains(GroupPolicy.TREE, GroupPolicy.STATIC);
        assertThat(duringNoise).containsOnly(GroupPolicy.TREE);
        List<GroupPolicy> after = sticky.subList(sticky.size() - 2 * AutoPolicy.REFRESH_EVERY, sticky.size());
        assertThat(after).containsOnly(GroupPolicy.STATIC);
        assertThat(sticky.subList(sticky.indexOf(GroupPolicy.STATIC), sticky.size())).as("switched once, for good")
                .containsOnly(GroupPolicy.STATIC);
    }

    @Test
    void aRefreshPointDoesNotWaitForItsOwnAllgather() {
        for (int call = 1; call < AutoPolicy.REFRESH_EVERY; call++) {
            members.get(0).next(this::gatherAlone);
        }
        // The allgather started at ticket 16 never completes here: ticket 16 and the calls after it still choose.
        AutoPolicy.Ticket refresh = members.get(0).next(report -> Promise.<List<Buffer>>promise().future());
        assertThat(refresh.model().succeeded()).isTrue();
        assertThat(members.get(0).next(this::gatherAlone).model().result()).isEqualTo(CALIBRATED);
    }

    @Test
    void theTreesCostPerTargetIsMeasuredNotAssumed() {
        // Interpolated between the calibrated 5 and 20 targets: 100 us + 20 us per target beyond 5.
        assertThat(CALIBRATED.micros(GroupPolicy.TREE, CallShape.scatter(12, 0))).isCloseTo(240, offset(0.001));
        assertThat(CALIBRATED.choose(CallShape.scatter(5, 10))).isEqualTo(GroupPolicy.TREE);
        assertThat(CALIBRATED.choose(CallShape.scatter(20, 10))).isEqualTo(GroupPolicy.STATIC);
        // A bcast multicasts its piece once; the tree sends it to every target.
        CallShape bcast = new CallShape(20, 1_000_000, true);
        assertThat(CALIBRATED.micros(GroupPolicy.STATIC, bcast)).isCloseTo(1_300, offset(0.001));
        assertThat(CALIBRATED.micros(GroupPolicy.TREE, bcast)).isCloseTo(20_400, offset(0.001));
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
        assertThat(members.get(1).current().choose(SMALL)).isEqualTo(GroupPolicy.TREE);
        assertThat(members.get(1).current().micros(GroupPolicy.TREE, SMALL)).isLessThan(2 * 100);
    }

    @Test
    void eachSizeClassIsCorrectedByItsOwnObservationsAndLendsThemToSizesNotRunYet() {
        long large = PolicyCalibration.LARGE_BYTES;
        CallShape big5 = CallShape.scatter(5, large);
        double calibratedLarge = CALIBRATED.micros(GroupPolicy.STATIC, big5);
        for (int call = 1; call <= 2 * AutoPolicy.REFRESH_EVERY; call++) {
            List<AutoPolicy.Ticket> tickets = nextOnBoth();
            if (call < AutoPolicy.REFRESH_EVERY) {
                // At 16 B per target static costs what the calibration said, at 16 KiB twice as much.
                boolean big = call % 2 == 1;
                observe(tickets, GroupPolicy.STATIC, big ? large : 16, 0, big ? 2 * calibratedLarge
                        : CALIBRATED.micros(GroupPolicy.STATIC, SMALL));
            }
        }
        PolicyCostModel refreshed = members.get(0).current();
        assertThat(refreshed.micros(GroupPolicy.STATIC, SMALL)).isCloseTo(CALIBRATED.micros(GroupPolicy.STATIC, SMALL),
                offset(1.0));
        assertThat(refreshed.micros(GroupPolicy.STATIC, big5)).isCloseTo(2 * calibratedLarge, offset(1.0));
        // A size not observed takes the nearest observed class's factor: 1 near 16 B, 2 near 16 KiB.
        CallShape near = CallShape.scatter(5, 64);
        CallShape far = CallShape.scatter(5, large / 4);
        assertThat(refreshed.micros(GroupPolicy.STATIC, near)).isEqualTo(CALIBRATED.micros(GroupPolicy.STATIC, near));
        assertThat(refreshed.micros(GroupPolicy.STATIC, far)).isCloseTo(2 * CALIBRATED.micros(GroupPolicy.STATIC, far),
                offset(0.001));
        assertThat(refreshed.micros(GroupPolicy.TREE, SMALL)).as("not observed")
                .isEqualTo(CALIBRATED.micros(GroupPolicy.TREE, SMALL));
    }

    @Test
    void aMalformedReportFailsTheRefreshNamingTheRank() {
        for (int call = 1; call < AutoPolicy.REFRESH_EVERY; call++) {
            members.get(0).next(this::gatherAlone);
        }
        reports.add(ValueCodec.encode(new double[] {3, GroupPolicy.TREE.ordinal(), 5, 16, 0})); // 5, not 6
        members.get(0).next(report -> Future.succeededFuture(List.of(report, reports.get(0))));
        for (int call = AutoPolicy.REFRESH_EVERY + 1; call < 2 * AutoPolicy.REFRESH_EVERY; call++) {
            members.get(0).next(this::gatherAlone);
        }
        // Adopted at the next refresh point: that call fails, naming the rank.
        Future<PolicyCostModel> model = members.get(0).next(this::gatherAlone).model();
        assertThat(model.failed()).isTrue();
        assertThat(model.cause()).isInstanceOf(MalformedMessageException.class).hasMessageContaining("rank 1");
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

    /** What each member decides for {@link #SMALL} by its ticket's model (through its remembered decision). */
    private List<GroupPolicy> chosen(List<AutoPolicy.Ticket> tickets) {
        List<GroupPolicy> chosen = new ArrayList<>();
        for (int member = 0; member < tickets.size(); member++) {
            chosen.add(members.get(member).choose(tickets.get(member).model().result(), SMALL));
        }
        return chosen;
    }

    /** The call of {@code tickets} took {@code rootMicros} at member 0 and {@code targetMicros} at member 1. */
    private void observe(List<AutoPolicy.Ticket> tickets, GroupPolicy policy, long rootMicros, long targetMicros) {
        observe(tickets, policy, 16, rootMicros, targetMicros);
    }

    private void observe(List<AutoPolicy.Ticket> tickets, GroupPolicy policy, long bytesPerTarget, double rootMicros,
            double targetMicros) {
        double[] took = {rootMicros, targetMicros};
        for (int member = 0; member < 2; member++) {
            members.get(member).observe(tickets.get(member).index(), policy, CallShape.scatter(5, bytesPerTarget),
                    took[member]);
        }
    }

    private static PolicyCostModel.Lines same(PolicyCostModel.Line line) {
        return new PolicyCostModel.Lines(line, line);
    }
}
