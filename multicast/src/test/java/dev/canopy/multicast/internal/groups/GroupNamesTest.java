package dev.canopy.multicast.internal.groups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canopy.gridconfig.model.MulticastRange;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Slot names, group keys, leased fabric groups and the order in which slots are tried; no ZooKeeper. */
class GroupNamesTest {

    @Test
    void slotNamesAreReadStrictly() {
        assertThat(Slot.parse("239.192.0.5:45000")).hasValueSatisfying(slot -> {
            assertThat(slot.name()).isEqualTo("239.192.0.5:45000");
            assertThat(slot.socketAddress()).isEqualTo(new InetSocketAddress("239.192.0.5", 45000));
        });
        for (String notASlot : List.of("239.192.0.5", "239.192.0.5:0", "239.192.0.5:65536", "239.192.0.05:45000",
                "239.256.0.5:45000", "10.0.0.1:45000", "239.192.0.5:045000", " 239.192.0.5:45000", "lease", "")) {
            assertThat(Slot.parse(notASlot)).as(notASlot).isEmpty();
        }
    }

    @Test
    void groupKeysAreZnodeNames() {
        assertThat(GroupKey.communicator(7).name()).isEqualTo("c7");
        assertThat(GroupKey.communicator(-1).name()).isEqualTo("c4294967295");
        assertThat(GroupKey.target(3, GroupPolicy.DYNAMIC, 12).name()).isEqualTo("c3-dynamic-12");
        for (String bad : List.of("", ".", "..", "a/b", "a b", "x".repeat(101), "\u0000")) {
            assertThatThrownBy(() -> new GroupKey(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must be 1 to 100 characters");
        }
        assertThat(GroupPolicy.fromConfigName(" Persistent ")).hasValue(GroupPolicy.PERSISTENT);
        assertThat(GroupPolicy.fromConfigName("sometimes")).isEmpty();
    }

    @Test
    void aLeasedFabricGroupCarriesItsAddressAndDiffersFromAnotherAddressWithTheSameNumber() throws Exception {
        MulticastGroup a = new GroupLease(new GroupKey("c1"), new InetSocketAddress("239.192.0.1", 45000), LeaseRole.OWNER).group(1);
        MulticastGroup b = new GroupLease(new GroupKey("c1"), new InetSocketAddress("239.192.0.1", 45001), LeaseRole.MEMBER).group(1);

        assertThat(a).isNotEqualTo(b).isNotEqualTo(new MulticastGroup(1));
        assertThat(a.address()).hasValue(new InetSocketAddress("239.192.0.1", 45000));
        assertThatThrownBy(() -> MulticastGroup.leased(1, new InetSocketAddress(InetAddress.getByName("224.0.0.1"), 1)))
                .hasMessageContaining("must be an IPv4 address in 239.0.0.0/8");
        assertThatThrownBy(() -> MulticastGroup.leased(1, InetSocketAddress.createUnresolved("239.1.1.1", 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void candidatesGuessFirstThenVisitEveryFreeSlotOnceAndThenNone() {
        MulticastRange range = MulticastRange.parse("239.192.0.0/29", "45000-45001");
        SlotCandidates candidates = new SlotCandidates(range, new SplittableRandom(5));
        for (int i = 0; i < SlotCandidates.RANDOM_TRIES; i++) {
            assertThat(candidates.needsListing()).isFalse();
            assertThat(candidates.next().getAsLong()).isBetween(0L, range.capacity() - 1);
        }
        assertThat(candidates.needsListing()).isTrue();
        candidates.listed(List.of(0L, 3L, 15L));

        Set<Long> tried = new HashSet<>();
        for (OptionalLong next = candidates.next(); next.isPresent(); next = candidates.next()) {
            assertThat(tried.add(next.getAsLong())).isTrue();
            candidates.taken(next.getAsLong());
        }
        assertThat(tried).hasSize(13).doesNotContain(0L, 3L, 15L);
    }
}
