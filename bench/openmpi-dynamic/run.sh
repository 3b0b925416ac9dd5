#!/bin/sh
# Open MPI's MPI_Comm_spawn, MPI_Intercomm_merge and inter-communicator bcast on this machine, for the
# shapes of `canopy bench dynamic` (issue 16); prints one JSON document on stdout (progress on stderr).
#   bench/openmpi-dynamic/run.sh [--quick] [--runs N] [--parents "1 2 4"] [--children "1 2 4"]
# Needs Debian's openmpi-bin and libopenmpi-dev. Everything stays on this machine: shared memory within a job,
# TCP on the loopback interface only between parents and children (Open MPI 4.1's shared-memory transport
# cannot reach spawned processes: "Unreachable" in dpm.c) and for Open MPI's own control traffic.
set -eu
cd "$(dirname "$0")"
RUNS=20
WARMUP=2
ITERS=20
PARENTS="1 2 4 8 16"
CHILDREN="1 2 4 8 16"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) PARENTS="1 4 16"; CHILDREN="1 4 16"; RUNS=5; WARMUP=1; ITERS=10 ;;
    --runs) RUNS="$2"; shift ;;
    --parents) PARENTS="$2"; shift ;;
    --children) CHILDREN="$2"; shift ;;
    *) echo "usage: $0 [--quick] [--runs N] [--parents \"1 2 4\"] [--children \"1 2 4\"]" >&2; exit 2 ;;
  esac
  shift
done
command -v mpicc >/dev/null || { echo "mpicc not found: apt-get install -y openmpi-bin libopenmpi-dev" >&2; exit 2; }
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT INT TERM
mpicc -O2 -o "$BUILD/dynamic_bench" dynamic_bench.c
# Spawned children need slots too: oversubscribe for them as for the parents.
# PMIX_MCA_gds=hash: with Debian's Open MPI 4.1.4 and its PMIx, spawned children otherwise hang in PMIx_Init
# now and then (the shared-memory data store), and the parent with them in MPI_Comm_spawn.
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_gds=hash
# One mpirun (one parent size, every child count) may take at most this long; a shape that hangs is reported.
LIMIT=${LIMIT:-900}
LINES="$BUILD/lines"
: > "$LINES"
for p in $PARENTS; do
  echo "parents $p: children $CHILDREN, $RUNS runs" >&2
  # shellcheck disable=SC2086
  if ! timeout "$LIMIT" mpirun --oversubscribe --allow-run-as-root -np "$p" --mca btl self,vader,tcp \
    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
    "$BUILD/dynamic_bench" "$RUNS" "$WARMUP" "$ITERS" $CHILDREN >> "$LINES"; then
    echo "parents $p: mpirun failed or ran over ${LIMIT} s; the shapes it did not print are missing" >&2
    printf '{"kind": "incomplete", "parents": %s, "limit_s": %s}\n' "$p" "$LIMIT" >> "$LINES"
  fi
done
VERSION=$(mpirun --version | head -1 | sed 's/.* //')
printf '{"implementation": "Open MPI %s", "date": "%s", "machine": "%s, %s CPUs", "runs": %s, "results": [\n' \
  "$VERSION" "$(date -u +%Y-%m-%dT%H:%MZ)" "$(uname -m)" "$(nproc)" "$RUNS"
sed '$!s/$/,/' "$LINES"
printf ']}\n'
