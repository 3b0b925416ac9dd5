package dev.canopy.multicast.internal.fabric.udp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.core.testing.RootOnly;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The substrate over real IPv4 multicast: member processes, each in its own network namespace (an
 * emulated host) on a Linux bridge in a namespace of its own, broadcast messages of every size class
 * (0 bytes to 256 KiB) from random roots over the {@code udp} fabric, with a TCP link for ACKs and
 * retransmissions; every member checks every message byte by byte. Needs root (skipped with the reason
 * otherwise); the namespaces are deleted afterwards, and the machine's own interfaces are never touched.
 */
class UdpMulticastNamespaceTest {

    private static final long SEED = Long.getLong("canopy.seed", System.nanoTime());

    @Test
    @Timeout(180)
    void threeHostsBroadcastOverRealMulticast() throws Exception {
        run(3, 150);
    }

    @Test
    @Tag("exhaustive")
    @Timeout(600)
    void sixteenHostsBroadcastOverRealMulticast() throws Exception {
        run(16, 500);
    }

    private static void run(int hosts, int messages) throws Exception {
        RootOnly.assumeAvailable(NetworkNamespaces.unavailableReason());
        System.out.println("UdpMulticastNamespaceTest seed: " + SEED + " (replay with -Dcanopy.seed=" + SEED + ")");
        List<Process> processes = new ArrayList<>();
        try (NetworkNamespaces namespaces = RootOnly.createOrSkip(() -> NetworkNamespaces.create(hosts))) {
            List<BlockingQueue<String>> outputs = new ArrayList<>();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            for (int i = 0; i < hosts; i++) {
                Process process = namespaces.exec(i, List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                        UdpMemberMain.class.getName(), String.valueOf(i), String.valueOf(hosts), String.valueOf(messages),
                        String.valueOf(SEED))).redirectErrorStream(true).start();
                processes.add(process);
                outputs.add(linesOf(process, "host-" + i));
            }
            for (int i = 0; i < hosts; i++) {
                assertThat(awaitLine(outputs.get(i), "READY", 60)).as("host %d", i).startsWith("READY");
            }
            tellAll(processes, "GO");
            for (int i = 0; i < hosts; i++) {
                assertThat(awaitLine(outputs.get(i), "PROBE", 30)).as("host %d", i).startsWith("PROBE multicast works");
            }
            List<String> done = new ArrayList<>();
            for (int i = 0; i < hosts; i++) {
                String line = awaitLine(outputs.get(i), "DONE", 120);
                assertThat(line).as("host %d", i).startsWith("DONE " + messages);
                // Packets really came over IP multicast, not only over the TCP link.
                assertThat(line).as("host %d", i).doesNotContain("fromFabric=0 ");
                done.add("host " + i + ": " + line);
            }
            tellAll(processes, "EXIT");
            for (Process process : processes) {
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            done.forEach(System.out::println);
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
    }

    /** Copies a child's output to ours (prefixed) and queues its lines. */
    private static BlockingQueue<String> linesOf(Process process, String name) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    System.out.println("[" + name + "] " + line);
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("ERROR reading output: " + e);
            }
        }, name + "-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    /** The first line starting with {@code prefix} or ERROR, within {@code seconds}. */
    private static String awaitLine(BlockingQueue<String> lines, String prefix, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            String line = lines.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line != null && (line.startsWith(prefix) || line.startsWith("ERROR"))) {
                return line;
            }
        }
        throw new AssertionError("no " + prefix + " line within " + seconds + " s");
    }

    private static void tellAll(List<Process> processes, String line) throws IOException {
        for (Process process : processes) {
            OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }
    }
}
