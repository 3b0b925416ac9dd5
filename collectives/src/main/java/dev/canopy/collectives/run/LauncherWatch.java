package dev.canopy.collectives.run;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * A process started by {@code canopy launch} ends when the launcher does, however it ends (SIGKILL
 * included). The launcher keeps the write end of each process's standard input open and never writes to
 * it; when the launcher dies, the kernel closes that pipe and a read here returns end-of-file at once, and
 * the process leaves its job and exits ({@link EmergencyExit#LAUNCHER_GONE}).
 *
 * <p>Why the pipe, and not a parent-process check: the end-of-file needs no polling (no delay, no cost),
 * cannot be fooled by PID reuse or by a wrapper process between launcher and JVM, and arrives whether the
 * launcher exited, crashed or was killed. The price: launched programs must not read standard input,
 * which belongs to the launcher (the launcher is its only writer and writes nothing).
 */
public final class LauncherWatch {

    /** Set to {@code 1} by {@code canopy launch}: standard input is the launcher's pipe. */
    public static final String ENV_WATCH_LAUNCHER = "CANOPY_WATCH_LAUNCHER";

    private LauncherWatch() {
    }

    /** Starts watching when {@code environment} says the launcher's pipe is on standard input. */
    public static void startIfLaunched(Map<String, String> environment, InputStream launcherPipe) {
        if (!"1".equals(environment.get(ENV_WATCH_LAUNCHER))) {
            return;
        }
        Thread watch = new Thread(() -> awaitEnd(launcherPipe), "canopy launcher watch");
        watch.setDaemon(true);
        watch.start();
    }

    private static void awaitEnd(InputStream launcherPipe) {
        String how;
        try {
            byte[] ignored = new byte[64];
            while (launcherPipe.read(ignored) >= 0) {
                // The launcher writes nothing; anything read is dropped.
            }
            how = "its pipe from this process's launcher closed";
        } catch (IOException e) {
            how = "its pipe from this process's launcher failed (" + e.getMessage() + ")";
        }
        EmergencyExit.exit(EmergencyExit.LAUNCHER_GONE, "canopy launch is gone (" + how + ")");
    }
}
