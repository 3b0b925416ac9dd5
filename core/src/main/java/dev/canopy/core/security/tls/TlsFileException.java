package dev.canopy.core.security.tls;

import java.nio.file.Path;

/** A TLS file that cannot be used: the message names the file, its role and the fix. */
public final class TlsFileException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient Path path;

    TlsFileException(Path path, String role, String problem) {
        super("TLS " + role + " file " + path + " " + problem);
        this.path = path;
    }

    /** The file at fault. */
    public Path path() {
        return path;
    }
}
