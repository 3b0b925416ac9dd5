package dev.canopy.probes.internal;

import dev.canopy.core.node.Member;
import dev.canopy.core.node.NodeAddress;
import dev.canopy.core.node.NodeId;
import dev.canopy.gridconfig.Coordinates;
import java.util.ArrayList;
import java.util.List;

/** Memberships of made-up grids for schedule tests (addresses are never dialled). */
public final class TestGrids {

    private TestGrids() {
    }

    /** {@code sites} sites of {@code perSite} single-process hosts; site s is named {@code s<s>}. */
    public static List<Member> members(int sites, int perSite) {
        List<Member> members = new ArrayList<>();
        int port = 20000;
        for (int s = 0; s < sites; s++) {
            for (int h = 0; h < perSite; h++) {
                String site = String.format("s%02d", s);
                String host = site + "-h" + String.format("%02d", h);
                Coordinates coordinates = new Coordinates("wan", site, site + "-lan", site + "-cluster", host);
                members.add(new Member(NodeId.of(host), coordinates, new NodeAddress("127.0.0.1", port++, port++)));
            }
        }
        return members;
    }
}
