package dev.canopy.dynamic;

/** The inter-communicator collectives with the flat inter phase (rank 0s). */
class InterCollectivesFlatTest extends InterCollectivesContract {

    @Override
    InterPhase phase() {
        return InterPhase.FLAT;
    }
}
