package dev.canopy.cli.launch;

import dev.canopy.collectives.run.JoinOptions;
import dev.canopy.core.security.tls.TlsSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment of a launched process, for a program with its own {@code main} that joins by itself with
 * {@code JoinOptions.fromEnvironment(System.getenv())}, as on one machine: the job, its process index, level file,
 * ZooKeeper (and its TLS directory), the secret's file (never the secret), live plans, the TLS files, and
 * {@link JoinOptions#ENV_HOST}, the address the process listens on and advertises (a {@code CanopyProgram} is joined
 * with it by {@code canopy node --host}; {@code JoinOptions.fromEnvironment} binds it for a {@code main}).
 */
public final class ProgramEnvironment {

    private ProgramEnvironment() {
    }

    /** The variables of process {@code process} of {@code plan} on this host, whose files are {@code files}. */
    static Map<String, String> of(LaunchPlan plan, int process, String address, AgentNodes.Files files) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put(JoinOptions.ENV_JOB, plan.job());
        environment.put(JoinOptions.ENV_PROCESS, Integer.toString(process));
        environment.put(JoinOptions.ENV_CONFIG, files.levelFile().toString());
        environment.put(JoinOptions.ENV_ZOOKEEPER, plan.zooKeeper());
        environment.put(JoinOptions.ENV_SECRET_FILE, files.secret().toString());
        environment.put(JoinOptions.ENV_LIVE_PLANS, plan.program().livePlans() ? "1" : "0");
        environment.put(JoinOptions.ENV_HOST, address);
        files.zooKeeperTlsDirectory().ifPresent(directory -> environment.put(JoinOptions.ENV_ZOOKEEPER_TLS,
                directory.toString()));
        files.tlsDirectory().ifPresent(directory -> {
            TlsSettings settings = TlsSettings.fromDirectory(directory, process);
            environment.putAll(plan.tls().flatMap(LaunchPlan.Tls::peerName).map(settings::withPeerName)
                    .orElse(settings).environment());
        });
        return environment;
    }
}
