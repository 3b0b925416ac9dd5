package dev.canopy.multicast.internal.groups;

import dev.canopy.core.testing.Await;
import dev.canopy.gridconfig.model.MulticastRange;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.udp.UdpFabricOptions;
import dev.canopy.multicast.internal.fabric.udp.UdpMulticastFabric;
import dev.canopy.multicast.internal.loop.VertxOwnerLoop;
import io.vertx.core.Context;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run inside a network namespace by {@link TwoJobsUdpNamespaceTest}: two jobs, each with its own secret and two
 * members with their own ZooKeeper sessions, open the static group of the same context ({@code c1}, group number 1
 * in both) from a range of 8 slots, then each job's sender multicasts 300 datagrams over real IPv4 multicast on the
 * namespace's interface while the other job's does the same, and each job's receiver counts its own job's and the
 * other's. Then the same without leases (both jobs on the udp fabric's unleased address for number 1), as the
 * control. Prints {@code LEASES ...}, {@code LEASED a_own= a_foreign= b_own= b_foreign=} and {@code UNLEASED ...}.
 */
public final class TwoJobsUdpMain {

    private static final int DATAGRAMS = 300;

    private TwoJobsUdpMain() {
    }

    public static void main(String[] args) throws Exception {
        InetAddress local = InetAddress.getByName(args[0]);
        try (LeaseFixture fixture = new LeaseFixture()) {
            MulticastRange range = MulticastRange.parse("239.192.7.0/30", "45000-45001");
            LeaseFixture.Job a = LeaseFixture.newJob("job-a");
            LeaseFixture.Job b = LeaseFixture.newJob("job-b");
            GroupKey key = GroupKey.communicator(1);
            GroupLease aSender = Await.result(fixture.allocator(a, range).open(key));
            GroupLease bSender = Await.result(fixture.allocator(b, range).open(key));
            GroupLease aReceiver = Await.result(fixture.allocator(a, range).open(key));
            GroupLease bReceiver = Await.result(fixture.allocator(b, range).open(key));
            System.out.println("LEASES a=" + text(aSender) + "/" + text(aReceiver) + " b=" + text(bSender) + "/"
                    + text(bReceiver));
            System.out.println("LEASED " + exchange(fixture, local, aSender.group(1), bSender.group(1)));
            System.out.println("UNLEASED " + exchange(fixture, local, new MulticastGroup(1), new MulticastGroup(1)));
        }
        System.out.flush();
        System.exit(0);
    }

    /** Job A multicasts on {@code groupA} and job B on {@code groupB} at once; what each job's receiver heard. */
    private static String exchange(LeaseFixture fixture, InetAddress local, MulticastGroup groupA, MulticastGroup groupB)
            throws Exception {
        Context context = fixture.vertx.getOrCreateContext();
        VertxOwnerLoop loop = new VertxOwnerLoop(fixture.vertx, context);
        UdpFabricOptions options = UdpFabricOptions.on(local);
        UdpMulticastFabric aSend = UdpMulticastFabric.open(options, loop);
        UdpMulticastFabric bSend = UdpMulticastFabric.open(options, loop);
        UdpMulticastFabric aReceive = UdpMulticastFabric.open(options, loop);
        UdpMulticastFabric bReceive = UdpMulticastFabric.open(options, loop);
        AtomicLong[] heard = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
        CountDownLatch allOwn = new CountDownLatch(2);
        try {
            Await.result(io.vertx.core.Future.<Void>future(done -> context.runOnContext(ignored -> {
                listen(aReceive, groupA, 'A', heard[0], heard[1], allOwn);
                listen(bReceive, groupB, 'B', heard[2], heard[3], allOwn);
                aSend.join(groupA);
                bSend.join(groupB);
                done.complete();
            })));
            for (int i = 0; i < DATAGRAMS; i++) {
                int sequence = i;
                Await.result(io.vertx.core.Future.<Void>future(done -> context.runOnContext(ignored -> {
                    aSend.send(groupA, datagram('A', sequence));
                    bSend.send(groupB, datagram('B', sequence));
                    done.complete();
                })));
            }
            // Both receivers have their own job's datagrams (the host loses none): anything foreign came meanwhile.
            boolean complete = allOwn.await(30, TimeUnit.SECONDS);
            return (complete ? "" : "incomplete ") + "a_own=" + heard[0] + " a_foreign=" + heard[1] + " b_own=" + heard[2] + " b_foreign=" + heard[3];
        } finally {
            for (UdpMulticastFabric endpoint : new UdpMulticastFabric[] {aSend, bSend, aReceive, bReceive}) {
                context.runOnContext(ignored -> endpoint.close());
            }
        }
    }

    private static void listen(UdpMulticastFabric endpoint, MulticastGroup group, char job, AtomicLong own,
            AtomicLong foreign, CountDownLatch allOwn) {
        endpoint.receiveHandler((joined, datagram) -> {
            if (datagram.get(0) != job) {
                foreign.incrementAndGet();
            } else if (own.incrementAndGet() == DATAGRAMS) {
                allOwn.countDown();
            }
            endpoint.postReceive(datagram.clear());
        });
        for (int i = 0; i < 512; i++) {
            endpoint.postReceive(ByteBuffer.allocate(endpoint.mtu()));
        }
        endpoint.join(group);
    }

    private static String text(GroupLease lease) {
        return lease.address().getAddress().getHostAddress() + ":" + lease.address().getPort();
    }

    private static ByteBuffer datagram(char job, int sequence) {
        return ByteBuffer.allocate(5).put((byte) job).putInt(sequence).flip();
    }
}
