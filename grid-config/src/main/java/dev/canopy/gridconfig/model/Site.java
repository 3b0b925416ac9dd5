package dev.canopy.gridconfig.model;

import java.util.List;
import java.util.OptionalDouble;

/**
 * A light-WAN member: the subjobs that name it as their site.
 *
 * @param uplinkMbps the site's WAN access bandwidth shared by all its traffic to other sites; empty when unlimited
 */
public record Site(String name, String wanGroup, OptionalDouble uplinkMbps, List<String> subjobLabels, int processCount) {

    public Site {
        subjobLabels = List.copyOf(subjobLabels);
    }
}
