package dev.canopy.collectives.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canopy.collectives.run.LauncherEnvironment.Found;
import dev.canopy.collectives.run.LauncherEnvironment.Invalid;
import dev.canopy.collectives.run.LauncherEnvironment.Lookup;
import dev.canopy.collectives.run.LauncherEnvironment.NotLaunched;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which process a launcher's environment makes this one, and the errors for environments that cannot be used. */
@Timeout(10)
class LauncherEnvironmentTest {

    private static final String FILE = "grid.rsl";

    private static Lookup lookup(int processes, String... variables) {
        Map<String, String> environment = new HashMap<>();
        for (int i = 0; i < variables.length; i += 2) {
            environment.put(variables[i], variables[i + 1]);
        }
        return LauncherEnvironment.lookup(environment, processes, FILE);
    }

    private static Found found(Lookup lookup) {
        assertThat(lookup).isInstanceOf(Found.class);
        return (Found) lookup;
    }

    private static String invalid(Lookup lookup) {
        assertThat(lookup).isInstanceOf(Invalid.class);
        return ((Invalid) lookup).message();
    }

    @Test
    void eachLauncherGivesTheIndexAndTheSize() {
        assertThat(lookup(4, "OMPI_COMM_WORLD_RANK", "3", "OMPI_COMM_WORLD_SIZE", "4"))
                .isEqualTo(new Found(3, OptionalInt.of(4), "Open MPI", "OMPI_COMM_WORLD_RANK", Optional.of("OMPI_COMM_WORLD_SIZE")));
        assertThat(found(lookup(4, "PMI_RANK", "2", "PMI_SIZE", "4")).rankVariable()).isEqualTo("PMI_RANK");
        assertThat(found(lookup(4, "PMI_RANK", "2", "PMI_SIZE", "4")).index()).isEqualTo(2);
        assertThat(found(lookup(4, "MV2_COMM_WORLD_RANK", "1", "MV2_COMM_WORLD_SIZE", "4")).index()).isEqualTo(1);
        Found slurm = found(lookup(4, "SLURM_PROCID", "0", "SLURM_NTASKS", "4"));
        assertThat(slurm.index()).isZero();
        assertThat(slurm.describe()).isEqualTo("SLURM_PROCID=0, SLURM_NTASKS=4 (Slurm)");
    }

    @Test
    void pmixAloneGivesTheRankAndNoSize() {
        Found pmix = found(lookup(4, "PMIX_RANK", "3"));
        assertThat(pmix.index()).isEqualTo(3);
        assertThat(pmix.size()).isEmpty();
        assertThat(pmix.describe()).isEqualTo("PMIX_RANK=3 (PMIx)");
        assertThat(invalid(lookup(4, "PMIX_RANK", "4"))).isEqualTo("PMIX_RANK=4 is not one of the 4 processes of the"
                + " level file grid.rsl (0 to 3)");
    }

    @Test
    void openMpiSetsItsRankAndPmixsAlike() {
        assertThat(found(lookup(4, "OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "4", "PMIX_RANK", "1")).index())
                .isEqualTo(1);
        assertThat(invalid(lookup(4, "OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "4", "PMIX_RANK", "2")))
                .startsWith("OMPI_COMM_WORLD_RANK=1 and PMIX_RANK=2 disagree");
    }

    @Test
    void mpiVariablesWinOverSlurmsAndTheFirstLauncherInOrderDecides() {
        // mpirun inside a Slurm allocation: every process inherits the batch step's SLURM_PROCID=0.
        Found underAllocation = found(lookup(4, "SLURM_PROCID", "0", "SLURM_NTASKS", "1",
                "OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4"));
        assertThat(underAllocation.index()).isEqualTo(2);
        assertThat(underAllocation.launcher()).isEqualTo("Open MPI");
        assertThat(found(lookup(4, "SLURM_PROCID", "0", "SLURM_NTASKS", "1", "PMI_RANK", "3", "PMI_SIZE", "4")).index())
                .isEqualTo(3);
        assertThat(found(lookup(4, "MV2_COMM_WORLD_RANK", "1", "MV2_COMM_WORLD_SIZE", "4", "PMI_RANK", "2", "PMI_SIZE", "4"))
                .rankVariable()).isEqualTo("PMI_RANK");
        assertThat(found(lookup(4, "SLURM_PROCID", "1", "SLURM_NTASKS", "4", "MV2_COMM_WORLD_RANK", "3",
                "MV2_COMM_WORLD_SIZE", "4")).index()).isEqualTo(3);
    }

    @Test
    void aSizeThatDisagreesWithTheLevelFileNamesTheVariableAndTheFile() {
        assertThat(invalid(lookup(4, "OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "8")))
                .startsWith("OMPI_COMM_WORLD_SIZE=8 says the job has 8 processes, but the level file grid.rsl has 4;")
                .contains("mpirun -np 4").contains("canopy config from-hostfile");
        assertThat(invalid(lookup(4, "SLURM_PROCID", "0", "SLURM_NTASKS", "2"))).startsWith("SLURM_NTASKS=2 says");
    }

    @Test
    void aMalformedVariableIsAnErrorNamingItAndIsNeverSkippedForTheNextLaunchers() {
        assertThat(invalid(lookup(4, "OMPI_COMM_WORLD_RANK", "one", "OMPI_COMM_WORLD_SIZE", "4", "SLURM_PROCID", "1",
                "SLURM_NTASKS", "4"))).startsWith("OMPI_COMM_WORLD_RANK=\"one\" is not a whole number (a rank: 0, 1, ...)");
        assertThat(invalid(lookup(4, "PMI_RANK", "-1", "PMI_SIZE", "4"))).startsWith("PMI_RANK=\"-1\" is not a whole number");
        assertThat(invalid(lookup(4, "PMI_RANK", "", "PMI_SIZE", "4"))).startsWith("PMI_RANK=\"\" is not a whole number");
        assertThat(invalid(lookup(4, "PMI_RANK", "1", "PMI_SIZE", "0"))).isEqualTo("PMI_SIZE=0 must be at least 1");
        assertThat(invalid(lookup(4, "PMI_RANK", "99999999999", "PMI_SIZE", "4")))
                .isEqualTo("PMI_RANK=\"99999999999\" is too large for a rank");
        assertThat(invalid(lookup(4, "SLURM_PROCID", "4", "SLURM_NTASKS", "4")))
                .startsWith("SLURM_PROCID=4 is not below SLURM_NTASKS=4");
        assertThat(invalid(lookup(4, "MV2_COMM_WORLD_RANK", "1")))
                .startsWith("MV2_COMM_WORLD_RANK is set but MV2_COMM_WORLD_SIZE is not");
        assertThat(invalid(lookup(4, "SLURM_PROCID", "x".repeat(1000), "SLURM_NTASKS", "4")))
                .hasSizeLessThan(200).contains("...");
    }

    @Test
    void whiteSpaceAroundANumberIsTolerated() {
        assertThat(found(lookup(4, "PMI_RANK", " 2\n", "PMI_SIZE", "4 ")).index()).isEqualTo(2);
    }

    @Test
    void withoutALauncherVariableTheProcessWasNotLaunched() {
        assertThat(lookup(4, "PATH", "/bin", "CANOPY_PROCESS", "1", "SLURM_JOB_ID", "17")).isEqualTo(new NotLaunched());
    }
}
