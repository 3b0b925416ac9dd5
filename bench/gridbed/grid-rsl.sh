#!/usr/bin/env bash
# Writes a Canopy level file (RSL) for the grid gridbed has up: one subjob per site with one process
# per emulated host (process 2s+i on host i of site s, as gridbed's MPI hostfile places rank r), and
# one link section per site pair with gridbed's RTT.
#   grid-rsl.sh GRIDBED_RUN_DIR HEAVY_WAN_ALGORITHM > grid.rsl
set -euo pipefail
run=${1:?usage: grid-rsl.sh GRIDBED_RUN_DIR HEAVY_WAN_ALGORITHM}
algorithm=${2:?usage: grid-rsl.sh GRIDBED_RUN_DIR HEAVY_WAN_ALGORITHM}
[[ -r $run/hosts && -r $run/matrix.csv ]] || { echo "grid-rsl.sh: $run has no hosts or matrix.csv; is gridbed up?" >&2; exit 2; }

echo "(* gridbed grid, written by bench/gridbed/grid-rsl.sh from $run *)"
echo "+"
echo "( &(type = grid) (name = \"gridbed\") (levels = (heavy_wan $algorithm) (lan flat) (cluster binomial)) )"
awk '!/^#/ { hosts[$4] = hosts[$4] " \"" $3 ":1\""; count[$4]++; if (!($4 in seen)) { order[n++] = $4; seen[$4] = 1 } }
     END { for (i = 0; i < n; i++) { s = order[i]
             printf "( &(type = subjob) (label = \"%s\") (count = %d) (hosts =%s) (site = \"%s\") (fabric = none) )\n",
                    s, count[s], hosts[s], s } }' "$run/hosts"
awk -F, '!/^#/ && $1 != "from" && NF >= 3 {
             printf "( &(type = link) (between = \"%s\" \"%s\") (rtt_ms = %s) )\n", $1, $2, $3 }' "$run/matrix.csv"
