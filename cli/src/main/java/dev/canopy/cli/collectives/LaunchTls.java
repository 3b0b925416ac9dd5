package dev.canopy.cli.collectives;

import dev.canopy.cli.TlsOptionsMixin;
import dev.canopy.cli.keys.TemporaryKeys;
import dev.canopy.core.security.tls.TlsSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TLS of a {@code canopy launch}: none, the files the TLS options name (checked for every process
 * before any starts), or, for {@code --tls} without a directory, a CA and one node certificate made for
 * this launch in a temporary directory (mode 700) deleted when it ends ({@link TemporaryKeys}). Children
 * get the files' paths (never a key) in {@code CANOPY_TLS_*}.
 */
final class LaunchTls implements AutoCloseable {

    private final List<Optional<TlsSettings>> perProcess;
    private final Optional<TemporaryKeys> temporary;

    private LaunchTls(List<Optional<TlsSettings>> perProcess, Optional<TemporaryKeys> temporary) {
        this.perProcess = perProcess;
        this.temporary = temporary;
    }

    /**
     * @throws IllegalArgumentException when an option or a file is unusable, naming it and the fix
     */
    static LaunchTls of(TlsOptionsMixin options, int processes) throws IOException {
        Optional<TemporaryKeys> temporary = Optional.empty();
        if (options.wantsGenerated()) {
            temporary = Optional.of(TemporaryKeys.create());
            options.useGenerated(temporary.get().directory());
        }
        try {
            List<Optional<TlsSettings>> perProcess = new ArrayList<>();
            for (int process = 0; process < processes; process++) {
                perProcess.add(options.settings(process));
            }
            return new LaunchTls(perProcess, temporary);
        } catch (RuntimeException e) {
            if (temporary.isPresent()) {
                temporary.get().close();
            }
            throw e;
        }
    }

    /** The TLS settings of process {@code process}; empty without TLS. */
    Optional<TlsSettings> settings(int process) {
        return perProcess.get(process);
    }

    /** The variables that give process {@code process} its TLS files; empty without TLS. */
    Map<String, String> environment(int process) {
        return perProcess.get(process).map(TlsSettings::environment).orElse(Map.of());
    }

    @Override
    public void close() throws IOException {
        if (temporary.isPresent()) {
            temporary.get().close();
        }
    }
}
