package dev.canopy.cli.bench;

import dev.canopy.core.node.NodeAddress;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The echo peer as a child JVM: same java, same class path. Closing it closes the child's standard
 * input, which ends it; a child that does not end in time is destroyed.
 */
final class EchoPeerProcess implements AutoCloseable {

    /** The ports the child reported. */
    record Ports(int transportTcp, int transportUdp, int echo, int sink, int tlsTcp, int tlsUdp) {
    }

    private final Process process;
    private final Ports ports;

    private EchoPeerProcess(Process process, Ports ports) {
        this.process = process;
        this.ports = ports;
    }

    /** Starts the child and waits for its READY line. */
    static EchoPeerProcess start(NodeAddress benchmark, NodeAddress benchmarkTls, Path secretFile, Path tlsDirectory)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        // The same JVM options (heap, GC) as this JVM, so both ends of the measurement match.
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(option -> !option.startsWith("-XX:StartFlightRecording") && !option.startsWith("-agent")
                        && !option.startsWith("-javaagent"))
                .toList());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), EchoPeer.class.getName(),
                benchmark.host(), String.valueOf(benchmark.tcpPort()), String.valueOf(benchmark.udpPort()),
                secretFile.toString(), String.valueOf(benchmarkTls.tcpPort()), String.valueOf(benchmarkTls.udpPort()),
                tlsDirectory.toString()));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith(EchoProtocol.READY + " ")) {
            process.destroyForcibly();
            throw new IOException("the echo peer JVM did not start (first line: " + line + "); run with "
                    + "CANOPY_LOG_LEVEL=INFO to see its log");
        }
        String[] fields = line.split(" ");
        return new EchoPeerProcess(process, new Ports(Integer.parseInt(fields[1]), Integer.parseInt(fields[2]),
                Integer.parseInt(fields[3]), Integer.parseInt(fields[4]), Integer.parseInt(fields[5]),
                Integer.parseInt(fields[6])));
    }

    Ports ports() {
        return ports;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
