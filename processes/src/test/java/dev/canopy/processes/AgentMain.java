package dev.canopy.processes;

import dev.canopy.core.security.JobSecret;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/** An agent in a JVM of its own, for tests that kill it: {@code AgentMain ZK POOL NAME SITE SECRET_FILE}. */
public final class AgentMain {

    private AgentMain() {
    }

    public static void main(String[] args) throws Exception {
        Path secretFile = Path.of(args[4]);
        AgentOptions options = new AgentOptions(args[1], args[2], "host-" + args[2], args[3], 0,
                ChildStarter.sameClasspath(args[1], JoiningEntry.class.getName()), args[0], Optional.empty(), secretFile,
                JobSecret.fromFile(secretFile));
        try (LaunchAgent agent = LaunchAgent.start(options)) {
            System.out.println("agent ready");
            new CountDownLatch(1).await();
        }
    }
}
