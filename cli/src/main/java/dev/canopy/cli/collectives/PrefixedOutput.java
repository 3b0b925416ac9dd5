package dev.canopy.cli.collectives;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Copies a child process's output line by line to ours, each line prefixed (e.g. {@code [rank 3] }). */
final class PrefixedOutput {

    private PrefixedOutput() {
    }

    /** Starts a daemon thread that copies {@code from} until it ends; the thread is returned to be joined. */
    static Thread pump(InputStream from, PrintWriter to, String prefix) {
        Thread pump = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    synchronized (to) {
                        to.println(prefix + line);
                        to.flush();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading output of " + prefix.strip(), e);
            }
        }, "output " + prefix.strip());
        pump.setDaemon(true);
        pump.start();
        return pump;
    }
}
