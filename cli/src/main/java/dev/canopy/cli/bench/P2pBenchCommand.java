package dev.canopy.cli.bench;

import dev.canopy.cli.FutureWait;
import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.core.transport.Transport;
import dev.canopy.core.transport.TransportOptions;
import dev.canopy.core.transport.TransportSecurity;
import dev.canopy.core.security.JobSecret;
import dev.canopy.core.security.tls.TlsSettings;
import dev.canopy.cli.keys.TemporaryKeys;
import dev.canopy.core.node.CanopyVertx;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.canopy.core.transport.VertxTransport;
import dev.canopy.gridconfig.Coordinates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code canopy bench p2p}: round-trip latency (median, p99) and streaming throughput of
 * point-to-point messages between this JVM and a second one over loopback, through Canopy's
 * transport over plain TCP and over TLS 1.3 (certificates made for the run) and, side by side in the
 * same run, through a plain Vert.x NetSocket.
 */
@Command(
        name = "p2p",
        mixinStandardHelpOptions = true,
        resourceBundle = BenchOutput.TEXTS,
        description = {
            "Point-to-point latency and throughput between two JVMs over loopback: Canopy's transport",
            "over TCP and over TLS 1.3, beside a plain Vert.x NetSocket echo, measured alternately in one run."
        })
public final class P2pBenchCommand implements Callable<Integer> {

    static final int MAX_SIZE = 8 * 1024 * 1024;
    private static final Duration STEP_TIMEOUT = Duration.ofMinutes(2);

    @Option(names = "--sizes", split = ",", paramLabel = "BYTES",
            description = "Message sizes in bytes (default: ${DEFAULT-VALUE}).",
            defaultValue = "8,64,512,4096,32768,262144,1048576")
    private List<Integer> sizes;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1000",
            description = "Round trips measured per size and transport, after as many to warm up "
                    + "(fewer for large messages: at most 256 MiB echoed). Default: ${DEFAULT-VALUE}.")
    private int rounds;

    @Option(names = "--stream-bytes", paramLabel = "BYTES", defaultValue = "67108864",
            description = "Bytes streamed per size and transport for throughput, after as many to warm up "
                    + "(at least 200 and at most 200,000 messages). Default: ${DEFAULT-VALUE}.")
    private long streamBytes;

    @Option(names = "--stream-repeats", paramLabel = "N", defaultValue = "5",
            description = "Streams measured per size and transport, the transports taking turns; the table gives the"
                    + " median stream's throughput (default ${DEFAULT-VALUE}).")
    private int streamRepeats;

    @Option(names = "--jit-warm-up", paramLabel = "N", defaultValue = "20000",
            description = "Messages each transport sends to warm the JIT up before the first size (default ${DEFAULT-VALUE}).")
    private int jitWarmUp;

    @Mixin
    private BenchOutput output;

    @Mixin
    private PlotOption plot;

    @Override
    public Integer call() throws Exception {
        return output.unlessInvalid(validate(), this::run);
    }

    private int run() throws Exception {
        Vertx vertx = CanopyVertx.create();
        JobSecret secret = JobSecret.generate();
        Path secretFile = secret.writeTemporary();
        try (TemporaryKeys keys = TemporaryKeys.create()) {
            int status;
            TransportSecurity security = TransportSecurity.of(secret, EchoPeer.JOB);
            Transport transport = await(VertxTransport.start(vertx, TransportOptions.defaults().withNodeLabel("bench"),
                    security), "start the transport");
            Transport tls = await(VertxTransport.start(vertx, TransportOptions.defaults().withNodeLabel("bench-tls")
                    .withTls(TlsSettings.fromDirectory(keys.directory(), 0)), security), "start the TLS transport");
            try (EchoPeerProcess peer = EchoPeerProcess.start(transport.localAddress(), tls.localAddress(), secretFile,
                    keys.directory())) {
                EchoPeerProcess.Ports ports = peer.ports();
                List<P2pProbe> probes = List.of(
                        new CanopyProbe(CanopyProbe.PLAIN, transport, peerMember("echo-peer", ports.transportTcp(),
                                ports.transportUdp())),
                        new CanopyProbe(CanopyProbe.TLS, tls, peerMember("echo-peer-tls", ports.tlsTcp(), ports.tlsUdp())),
                        NetSocketProbe.create(vertx, TransportOptions.LOOPBACK, ports.echo(), ports.sink()));
                List<P2pRow> rows = measure(probes);
                print(rows, peer.pid());
                status = plot.draw(() -> P2pPlot.of(rows).render());
                for (P2pProbe probe : probes) {
                    await(probe.close(), "close " + probe.name());
                }
            }
            return status;
        } finally {
            Files.deleteIfExists(secretFile);
            FutureWait.await(vertx.close(), Duration.ofSeconds(10), "closing Vert.x");
        }
    }

    private static Member peerMember(String id, int tcpPort, int udpPort) {
        return new Member(NodeId.of(id), Coordinates.ofHost(id), new NodeAddress(TransportOptions.LOOPBACK, tcpPort, udpPort));
    }

    private Optional<String> validate() {
        if (sizes.stream().distinct().count() < sizes.size()) {
            return Optional.of("--sizes " + sizes + " lists a size twice");
        }
        for (int size : sizes) {
            if (size < 1 || size > MAX_SIZE) {
                return Optional.of("message size " + size + " is outside 1.." + MAX_SIZE + " bytes (--sizes)");
            }
        }
        if (rounds < 4) {
            return Optional.of("--rounds " + rounds + " is too few for a p99; use at least 4 (100 or more for a"
                    + " meaningful p99)");
        }
        if (jitWarmUp < 1) {
            return Optional.of("--jit-warm-up " + jitWarmUp + " must be positive");
        }
        if (streamRepeats < 1) {
            return Optional.of("--stream-repeats " + streamRepeats + " must be positive");
        }
        if (streamBytes < 1) {
            return Optional.of("--stream-bytes " + streamBytes + " must be positive");
        }
        return plot.problem();
    }

    /**
     * For each size, each probe in turn: round trips after a warm-up of the same length, and a warm-up stream; then
     * {@link #streamRepeats} streams per probe, the probes taking turns, so that a burst of machine load falls on all
     * of them alike; a row has the median stream (one stream of 200 MiB at 1 MiB lasts about 0.1 s on loopback, and a
     * single one moved the ratio by 3x between runs of the same build).
     */
    private List<P2pRow> measure(List<P2pProbe> probes) throws Exception {
        // Let the JIT compile both paths before the first size is measured.
        for (P2pProbe probe : probes) {
            await(probe.roundTrips(64, jitWarmUp), probe.name() + " JIT warm-up");
            await(probe.stream(64, jitWarmUp, 1024), probe.name() + " JIT warm-up stream");
        }
        List<P2pRow> rows = new ArrayList<>();
        for (int size : sizes) {
            int roundTrips = (int) Math.max(4, Math.min(rounds, (256L << 20) / (2L * size)));
            int streamed = (int) Math.max(200, Math.min(200_000, streamBytes / size));
            int window = (int) Math.max(1, Math.min(1024, (4L << 20) / size));
            Map<P2pProbe, long[]> rtts = new LinkedHashMap<>();
            Map<P2pProbe, long[]> streams = new LinkedHashMap<>();
            for (P2pProbe probe : probes) {
                await(probe.roundTrips(size, roundTrips), probe.name() + " warm-up, " + size + " B");
                rtts.put(probe, await(probe.roundTrips(size, roundTrips), probe.name() + " round trips, " + size + " B"));
                await(probe.stream(size, streamed, window), probe.name() + " stream warm-up, " + size + " B");
                streams.put(probe, new long[streamRepeats]);
            }
            for (int repeat = 0; repeat < streamRepeats; repeat++) {
                for (P2pProbe probe : probes) {
                    streams.get(probe)[repeat] = await(probe.stream(size, streamed, window),
                            probe.name() + " stream " + (repeat + 1) + ", " + size + " B");
                }
            }
            for (P2pProbe probe : probes) {
                rows.add(P2pRow.of(probe.name(), size, rtts.get(probe), streamed, median(streams.get(probe))));
            }
        }
        return rows;
    }

    /** The median of {@code nanos}; the lower middle one of an even count (a measured stream, not an average). */
    private static long median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }

    private void print(List<P2pRow> rows, long peerPid) {
        MachineInfo machine = MachineInfo.current();
        JsonArray sizesJson = new JsonArray();
        for (int size : sizes) {
            JsonObject entry = new JsonObject().put("size_bytes", size);
            rows.stream().filter(row -> row.size() == size).forEach(row -> entry.put(row.probe(), row.toJson()));
            sizesJson.add(entry);
        }
        output.print(new JsonObject().put("benchmark", "p2p").put("machine", machine.toJson())
                .put("peer_pid", peerPid).put("stream_repeats", streamRepeats).put("results", sizesJson), () -> P2pTable.render(sizes, rows, machine));
    }

    private static <T> T await(Future<T> future, String step) {
        return FutureWait.await(future, STEP_TIMEOUT, "bench p2p: " + step);
    }
}
