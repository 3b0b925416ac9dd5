package dev.canopy.cli.config;

import dev.canopy.gridconfig.internal.hosts.HostList;
import dev.canopy.gridconfig.internal.hosts.Hostfile;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code canopy config from-hostfile FILE --site-by RULE}: a level file for an MPI hostfile's hosts. */
@Command(
        name = "from-hostfile",
        mixinStandardHelpOptions = true,
        description = {"Write a level file for the hosts of an MPI hostfile, grouped into sites by --site-by.",
            "Reads Open MPI ('node01 slots=4') and MPICH/Hydra ('node01:4') hostfiles; # starts a comment.",
            "Process i of the file is on the host where mpirun (mapping by slot) starts rank i."})
public final class ConfigFromHostfileCommand extends HostLevelFileCommand {

    @Parameters(index = "0", paramLabel = "FILE", description = "the hostfile")
    private Path file;

    @Override
    HostList hosts() {
        return Hostfile.load(file);
    }

    @Override
    String defaultName() {
        String fileName = file.getFileName() == null ? "hosts" : file.getFileName().toString();
        int dot = fileName.lastIndexOf('.');
        return dot > 0 ? fileName.substring(0, dot) : fileName;
    }

    @Override
    String origin() {
        return "written by canopy config from-hostfile " + file;
    }
}
