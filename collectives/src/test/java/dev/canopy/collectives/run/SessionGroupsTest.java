package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.Blocking;
import dev.canopy.collectives.internal.multicast.GroupCollectives;
import dev.canopy.collectives.internal.multicast.GroupEndpoints;
import dev.canopy.core.internal.emulation.NanoClock;
import dev.canopy.core.internal.emulation.ThreadDelayScheduler;
import dev.canopy.core.node.JobId;
import dev.canopy.core.node.TransportStack;
import dev.canopy.core.security.JobSecret;
import dev.canopy.gridconfig.GridConfigs;
import dev.canopy.gridconfig.model.GridModel;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdOptions;
import dev.canopy.multicast.internal.fabric.emulated.EmulatedUdSwitch;
import dev.canopy.multicast.internal.groups.GroupPolicy;
import dev.canopy.zookeeper.server.EmbeddedZooKeeper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A program's session opens WORLD's {@link GroupCollectives} with its node's allocator (leases in the job's ZooKeeper,
 * from the grid's range) and closes them with the session: real nodes on 127.0.0.1, a real ZooKeeper, the groups on
 * the in-process emulated-ud switch (IP multicast is never sent on loopback).
 */
class SessionGroupsTest {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theSessionOpensWorldsGroupsOnceLeasingThemAndReleasesThemWhenItEnds() throws Exception {
        GridModel grid = GridConfigs.parse("""
                +
                ( &(type = grid) (name = "session-groups") (multicast_range = 239.194.3.0/29) )
                ( &(type = subjob) (label = "a") (count = 3) )
                """, "session-groups.rsl").orElseThrow();
        ThreadDelayScheduler wire = new ThreadDelayScheduler("emulated-ud-wire");
        EmulatedUdSwitch fabric = new EmulatedUdSwitch(EmulatedUdOptions.perfect(), NanoClock.SYSTEM, wire);
        GroupEndpoints endpoints = GroupEndpoints.emulated(fabric);
        JobSecret secret = JobSecret.generate();
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
                CuratorFramework observer = CuratorFrameworkFactory.newClient(zooKeeper.connectString(),
                        new RetryOneTime(100))) {
            observer.start();
            List<Future<CanopySession>> joining = new ArrayList<>();
            for (int process = 0; process < grid.processCount(); process++) {
                joining.add(Canopy.joinAsync(Vertx.vertx(), new JoinOptions(JobId.of("session-groups"), process, grid,
                        zooKeeper.connectString(), TransportStack.none(), secret)));
            }
            List<CanopySession> sessions = joining.stream().map(Blocking::await).toList();
            try {
                List<GroupCollectives> groups = sessions.stream()
                        .map(session -> session.groupsAsync(endpoints, GroupPolicy.AUTO)).toList()
                        .stream().map(Blocking::await).toList();
                assertThat(observer.getChildren().forPath("/canopy/multicast/slots")).as("WORLD's static group")
                        .singleElement().asString().startsWith("239.194.3.");
                assertThat(Blocking.await(sessions.get(1).groupsAsync(endpoints, GroupPolicy.AUTO)))
                        .as("opened once").isSameAs(groups.get(1));
                assertThat(sessions.get(1).groupsAsync(endpoints, GroupPolicy.STATIC).cause())
                        .hasMessageContaining("open already on emulated-ud endpoints with default policy auto");

                Buffer pieces = Buffer.buffer("abcdef");
                List<Optional<Buffer>> received = groups.stream().map(member -> member.scatter(0, new int[] {1, 2}, 3,
                        member.communicator().rank() == 0 ? pieces : null, null)).toList().stream()
                        .map(Blocking::await).toList();
                assertThat(received).containsExactly(Optional.empty(), Optional.of(Buffer.buffer("abc")),
                        Optional.of(Buffer.buffer("def")));
            } finally {
                // close() is collective (a barrier): every session at once.
                sessions.stream().map(session -> CompletableFuture.runAsync(session::close)).toList()
                        .forEach(CompletableFuture::join);
            }
            // Released by the sessions, not only ended with their ZooKeeper sessions: an ended lease leaves its
            // slot behind (until a sweep), a release deletes it.
            assertThat(observer.getChildren().forPath("/canopy/multicast/slots")).isEmpty();
            assertThat(sessions.get(0).groupsAsync(endpoints, GroupPolicy.AUTO).cause())
                    .hasMessageContaining("session has ended");
        } finally {
            wire.close();
        }
    }
}
