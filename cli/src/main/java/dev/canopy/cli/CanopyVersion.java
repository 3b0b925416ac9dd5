package dev.canopy.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports the version stamped into the jar manifest by Maven. */
public final class CanopyVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = CanopyVersion.class.getPackage().getImplementationVersion();
        return new String[] {"canopy " + (version == null ? "(development build)" : version)};
    }
}
