#!/bin/sh
# Open MPI's MPI_Comm_spawn, MPI_Intercomm_merge and inter-communicator bcast on this machine, for the
# shapes of `canopy bench dynamic` (issue 16); prints one JSON document on stdout (progress on stderr).
#   bench/openmpi-dynamic/run.sh [--quick] [--runs N] [--warmup N] [--parents "1 2 4"] [--children "1 2 4"]
#                                [--tries N] [--spawn-limit S]
# Needs Debian's openmpi-bin and libopenmpi-dev. Everything stays on this machine: shared memory within a job,
# TCP on the loopback interface only between parents and children (Open MPI 4.1's shared-memory transport
# cannot reach spawned processes: "Unreachable" in dpm.c) and for Open MPI's own control traffic.
#
# One mpirun per shape (parents x children). Debian's Open MPI 4.1.4 runs on the external PMIx 4.2.2, and that pair
# hangs now and then in a spawn (openpmix/openpmix#2735): a spawned child never finishes PMIx_Init, so the parents
# wait in MPI_Comm_spawn forever. A spawn that has not returned within --spawn-limit seconds (default 60) is
# reported as {"kind": "hung"} and its mpirun ended; the shape then runs again in a new mpirun, up to --tries
# times (default 3; the warm-up spawns again too), and a shape that hung every time is reported as
# {"kind": "incomplete"}. Nothing blocks the run.
set -eu
cd "$(dirname "$0")"
RUNS=20
WARMUP=2
ITERS=20
TRIES=3
SPAWN_LIMIT=60
PARENTS="1 2 4 8 16"
CHILDREN="1 2 4 8 16"
usage() {
  echo "usage: $0 [--quick] [--runs N] [--warmup N] [--parents \"1 2 4\"] [--children \"1 2 4\"] [--tries N]" \
    "[--spawn-limit S]" >&2
  exit 2
}
# $1 names the option, $2 its value, $3 the smallest value allowed.
number() {
  case "$2" in
    ''|*[!0-9]*) echo "$0: $1 '$2' is not a whole number" >&2; usage ;;
  esac
  [ "$2" -ge "$3" ] || { echo "$0: $1 $2 is below $3" >&2; usage; }
}
while [ $# -gt 0 ]; do
  [ "$1" = --quick ] || [ $# -ge 2 ] || { echo "$0: $1 needs a value" >&2; usage; }
  case "$1" in
    --quick) PARENTS="1 4 16"; CHILDREN="1 4 16"; RUNS=5; WARMUP=1; ITERS=10; shift; continue ;;
    --runs) number "$1" "$2" 1; RUNS="$2" ;;
    --warmup) number "$1" "$2" 0; WARMUP="$2" ;;
    --tries) number "$1" "$2" 1; TRIES="$2" ;;
    --spawn-limit) number "$1" "$2" 1; SPAWN_LIMIT="$2" ;;
    --parents) for n in $2; do number "$1" "$n" 1; done; PARENTS="$2" ;;
    --children) for n in $2; do number "$1" "$n" 1; done; CHILDREN="$2" ;;
    *) usage ;;
  esac
  shift 2
done
command -v mpicc >/dev/null || { echo "mpicc not found: apt-get install -y openmpi-bin libopenmpi-dev" >&2; exit 2; }
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT INT TERM
mpicc -O2 -o "$BUILD/dynamic_bench" dynamic_bench.c
# Spawned children need slots too: oversubscribe for them as for the parents. PMIX_MCA_gds=hash (PMIx's
# shared-memory data store off) makes the hang above rarer here, not gone.
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_gds=hash
# Backstop for one mpirun (a hang after the spawns: merge, bcast, disconnect): at most this long.
LIMIT=${LIMIT:-900}
LINES="$BUILD/lines"
OUT="$BUILD/out"
: > "$LINES"
for p in $PARENTS; do
  for c in $CHILDREN; do
    try=1
    while :; do
      echo "$p parents x $c children: $RUNS runs after $WARMUP untimed, try $try of $TRIES" >&2
      if timeout -k 10 "$LIMIT" mpirun --oversubscribe --allow-run-as-root -np "$p" --mca btl self,vader,tcp \
        --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
        "$BUILD/dynamic_bench" "$RUNS" "$WARMUP" "$ITERS" "$SPAWN_LIMIT" "$c" > "$OUT"; then
        cat "$OUT" >> "$LINES"
        break
      fi
      # Only what the failed try says of itself is kept: its hung spawn, or that it ran over the backstop.
      if grep -q '"kind": "hung"' "$OUT"; then
        grep '"kind": "hung"' "$OUT" | sed "s/}\$/, \"try\": $try}/" >> "$LINES"
        echo "$p x $c: a spawn hung (over ${SPAWN_LIMIT} s); its mpirun was ended" >&2
      else
        echo "$p x $c: mpirun failed or ran over ${LIMIT} s" >&2
        printf '{"kind": "failed", "parents": %s, "children": %s, "try": %s, "limit_s": %s}\n' "$p" "$c" "$try" \
          "$LIMIT" >> "$LINES"
      fi
      if [ "$try" -ge "$TRIES" ]; then
        echo "$p x $c: no try of $TRIES completed; the shape has no figure" >&2
        printf '{"kind": "incomplete", "parents": %s, "children": %s, "tries": %s}\n' "$p" "$c" "$TRIES" >> "$LINES"
        break
      fi
      try=$((try + 1))
    done
  done
done
VERSION=$(mpirun --version | head -1 | sed 's/.* //')
printf '{"implementation": "Open MPI %s", "date": "%s", "machine": "%s, %s CPUs", "runs": %s, "warmup": %s, "results": [\n' \
  "$VERSION" "$(date -u +%Y-%m-%dT%H:%MZ)" "$(uname -m)" "$(nproc)" "$RUNS" "$WARMUP"
sed '$!s/$/,/' "$LINES"
printf ']}\n'
