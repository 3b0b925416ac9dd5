package dev.canopy.gridconfig.internal.input;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The one way Canopy reads a file it is given (level files, latency CSVs): at most {@code maxBytes}
 * whatever the file is. A regular file's size cannot be trusted for this: {@code /dev/zero}, a pipe,
 * {@code /dev/stdin} or a FIFO report size 0 and never end, or never start. So the file is opened and
 * read on a daemon thread that hands over chunks and stops after {@code maxBytes + 1} bytes; the reader
 * fails with {@link InputTooLargeException} past the limit and with {@link InputStalledException}
 * when no byte arrives for {@code idleTimeout} (opening a FIFO with no writer blocks in the kernel,
 * beyond the reach of interrupts: that thread is left behind, parked, and ends with the JVM).
 */
public final class BoundedInput extends InputStream {

    /** How long a read waits for the next byte by default: generous for a slow pipe, short for a person waiting. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(10);

    private static final int CHUNK = 64 * 1024;
    private static final byte[] END = new byte[0];

    private final BlockingQueue<Object> chunks = new ArrayBlockingQueue<>(4);
    private final Duration idleTimeout;
    private final Thread pump;
    private byte[] current = new byte[0];
    private int position;
    private long delivered;
    private boolean ended;

    private BoundedInput(Path file, long maxBytes, Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
        this.pump = new Thread(() -> pump(file, maxBytes), "canopy-read " + file);
        pump.setDaemon(true);
        pump.start();
    }

    /** Opens {@code file} for reading at most {@code maxBytes}; the open itself happens on the reading thread. */
    public static InputStream open(Path file, long maxBytes, Duration idleTimeout) {
        if (maxBytes < 0 || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("need maxBytes >= 0 and a positive idle timeout, got " + maxBytes + " and " + idleTimeout);
        }
        return new BoundedInput(file, maxBytes, idleTimeout);
    }

    /** All bytes of {@code file}, at most {@code maxBytes}. */
    public static byte[] readAll(Path file, long maxBytes, Duration idleTimeout) throws IOException {
        try (InputStream in = open(file, maxBytes, idleTimeout)) {
            return in.readAllBytes();
        }
    }

    private void pump(Path file, long maxBytes) {
        try (InputStream in = Files.newInputStream(file)) {
            long total = 0;
            while (true) {
                byte[] chunk = new byte[(int) Math.min(CHUNK, maxBytes + 1 - total)];
                int read = in.read(chunk);
                if (read < 0) {
                    chunks.put(END);
                    return;
                }
                total += read;
                int allowed = total > maxBytes ? read - 1 : read;
                if (allowed > 0) {
                    chunks.put(allowed == chunk.length ? chunk : Arrays.copyOf(chunk, allowed));
                }
                if (total > maxBytes) {
                    chunks.put(new InputTooLargeException(maxBytes));
                    return;
                }
            }
        } catch (IOException e) {
            offerQuietly(e);
        } catch (InterruptedException e) {
            // the reader closed the stream: nobody wants the rest
        }
    }

    private void offerQuietly(IOException failure) {
        try {
            chunks.put(failure);
        } catch (InterruptedException e) {
            // the reader closed the stream
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] target, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (position == current.length && !nextChunk()) {
            return -1;
        }
        int count = Math.min(length, current.length - position);
        System.arraycopy(current, position, target, offset, count);
        position += count;
        delivered += count;
        return count;
    }

    private boolean nextChunk() throws IOException {
        if (ended) {
            return false;
        }
        Object next;
        try {
            next = chunks.poll(idleTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading");
        }
        if (next == null) {
            throw new InputStalledException(idleTimeout, delivered);
        }
        if (next instanceof IOException failure) {
            ended = true;
            throw failure;
        }
        if (next == END) {
            ended = true;
            return false;
        }
        current = (byte[]) next;
        position = 0;
        return true;
    }

    /** Stops the reading thread (unless it is stuck opening a FIFO) and closes the file. */
    @Override
    public void close() {
        ended = true;
        pump.interrupt();
        chunks.clear();
    }
}
