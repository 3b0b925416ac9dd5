package dev.canopy.dynamic;

/** The inter-communicator collectives with the topology-aware inter phase. */
class InterCollectivesTopologyTest extends InterCollectivesContract {

    @Override
    InterPhase phase() {
        return InterPhase.TOPOLOGY;
    }
}
