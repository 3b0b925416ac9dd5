package dev.canopy.cli.launch;

/** Hears each launched process's end as the launcher learns it (on this machine, or from a host over ssh). */
@FunctionalInterface
public interface ProcessExitListener {

    ProcessExitListener NONE = (process, status, meaning) -> { };

    /**
     * @param process the process's index in the level file
     * @param status its exit status (over ssh: its host's ssh status when the host was lost before it reported one)
     * @param meaning what the status says, for people
     */
    void exited(int process, int status, String meaning);
}
