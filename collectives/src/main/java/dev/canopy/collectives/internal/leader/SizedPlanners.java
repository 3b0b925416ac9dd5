package dev.canopy.collectives.internal.leader;

import dev.canopy.collectives.plan.SitePairBandwidths;
import dev.canopy.topology.internal.hierarchy.HierarchicalPlanner;

/**
 * The job's planner for one message size and one set of bandwidth forecasts: the level algorithms, LogGP
 * parameters and level file every member shares, with the epoch's bandwidths. Size 0 is the latency-only planner
 * the runtime's default collectives use; a larger size prices every link's transfer (the level file's bandwidth,
 * else the forecast, else unlimited), so its trees route large messages around thin links. Pure: the same inputs
 * give the same planner on every member.
 */
@FunctionalInterface
public interface SizedPlanners {

    HierarchicalPlanner plannerFor(long messageBytes, SitePairBandwidths bandwidths);

    /** One planner for every size, ignoring bandwidths: the latency-only planning of live plans before bandwidth. */
    static SizedPlanners latencyOnly(HierarchicalPlanner planner) {
        return (messageBytes, bandwidths) -> planner;
    }
}
