package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member that looks a group up while its owner releases it reads the group record just before the release's
 * transaction (group, lease and slot deleted at once) and its lease just after: that is a group that is gone, not a
 * malformed record. Lookups race releases many times; each must find the group or report it gone.
 */
@Timeout(120)
class LookupDuringReleaseTest {

    private static final int ROUNDS = 150;
    private static final int LOOKUPS_PER_ROUND = 4;

    private final LeaseFixture fixture = new LeaseFixture();

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void aLookupRacingTheOwnersReleaseFindsTheGroupOrReportsItGone() {
        LeaseFixture.Job job = LeaseFixture.newJob("releasing");
        MulticastRange range = MulticastRange.parse("239.192.10.0/30", "45000");
        GroupAllocator owner = fixture.allocator(job, range);
        GroupAllocator member = fixture.allocator(job, range);
        GroupKey key = new GroupKey("c0");
        for (int round = 0; round < ROUNDS; round++) {
            GroupLease lease = Await.result(owner.create(key));
            List<Future<GroupLease>> lookups = new ArrayList<>();
            for (int i = 0; i < LOOKUPS_PER_ROUND; i++) {
                lookups.add(member.lookup(key));
            }
            Await.result(owner.release(lease));
            for (Future<GroupLease> lookup : lookups) {
                final int r = round;
                Await.until(lookup::isComplete, () -> "lookup of round " + r + " completes");
                if (lookup.succeeded()) {
                    assertThat(lookup.result().address()).isEqualTo(lease.address());
                } else {
                    assertThat(lookup.cause()).as("round %d", round).isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("has no multicast group c0");
                }
            }
        }
    }
}
