package dev.canopy.collectives.internal.timing;

import dev.canopy.collectives.internal.engine.Operation;
import dev.canopy.core.internal.membership.MalformedZnodeException;
import dev.canopy.core.node.JobId;
import dev.canopy.core.testing.fuzz.DecoderFuzzContract;
import dev.canopy.core.testing.fuzz.FuzzCampaign;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Published timings as ZooKeeper may hold them after a broken writer with the secret (a foreign one fails the MAC
 * first): seeded mutation fuzzing ({@link FuzzCampaign}, JSON-aware) of the sealed document's body finds no error but
 * {@link MalformedZnodeException}, and what a member publishes round-trips.
 */
class TimingsZnodeFuzzTest extends DecoderFuzzContract {

    private static final String MEMBER = "p3";
    private static final String PATH = TimingsZnode.memberPath(JobId.of("fuzzed"), MEMBER);
    private static final Operation[] OPERATIONS = Operation.values();

    @Override
    protected Stream<FuzzCampaign<?>> campaigns() {
        return Stream.of(FuzzCampaign.of("TimingsZnode.decodeBody", TimingsZnodeFuzzTest::randomTimings,
                timings -> Buffer.buffer(TimingsZnode.body(timings)),
                bytes -> TimingsZnode.decodeBody(bytes.getBytes(), PATH, MEMBER)).rejectingWith(MalformedZnodeException.class)
                .json());
    }

    private static TimingsZnode.MemberTimings randomTimings(SplittableRandom random) {
        int count = random.nextInt(4);
        List<OperationTiming> operations = new ArrayList<>(count);
        for (int at = 0; at < count; at++) {
            long arrival = random.nextLong(1L << 52);
            operations.add(new OperationTiming(random.nextInt(1, 9), random.nextLong(1 << 20),
                    OPERATIONS[random.nextInt(OPERATIONS.length)], random.nextInt(64), random.nextLong(1L << 30),
                    random.nextLong(), arrival,
                    random.nextBoolean() ? Optional.of(arrival + random.nextLong(1 << 20)) : Optional.empty(),
                    random.nextInt(4) == 0 ? Optional.of("rank " + random.nextInt(64) + " failed") : Optional.empty()));
        }
        return new TimingsZnode.MemberTimings(MEMBER, random.nextInt(64), operations);
    }
}
