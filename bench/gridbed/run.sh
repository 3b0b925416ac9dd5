#!/usr/bin/env bash
# Canopy and Open MPI side by side on gridbed's emulated grid (8 sites x 2 hosts by default), with
# mpibench's method: synchronised start, 1 s guard, sync = last rank done - root's start, median of
# 20 iterations, root at the first host of the first site. Prints the comparison table.
#
#   bench/gridbed/run.sh [--gridbed DIR] [--spec grid8] [--hosts N] [--algorithm auto] [--sizes 2,1024,65536,1048576]
#                        [--iterations 20] [--warm-wan auto] [--out DIR] [--only canopy|mpi|COLUMNS]
#
# --only runs some columns (canopy-idle, canopy-nowarm, canopy-warm, mpi-default, mpi-binomial,
# comma-separated; without it all but canopy-warm); the table is printed from everything in --out, so a
# column can be rerun into an earlier run's --out (--only none just prints it again).
#
# --hosts N runs N hosts per site instead of the spec's (its copy goes to --out): each host is a JVM
# for Canopy, and 16 of them did not survive the start on a machine loaded by other work.
#
# Needs root and a copy of gridbed with `./gridbed build` done (cp -r ../shared/gridbed /tmp/gridbed;
# its README lists the Debian packages). Columns:
#   lower bound      shortest-path-tree latency of the spec's matrix (gridbed's models.py), no transfer time
#   Canopy fresh     one `canopy node` per host (this worktree's cli/target/canopy.jar, built by ./canopy
#                    when stale), ZooKeeper in the router namespace, heavy-WAN tree `auto`; the spec as
#                    given: fresh connections, opened by the job, and the node's default start, which warms
#                    the plan's WAN connections in the background (`--warm-wan auto`; --warm-wan changes it)
#   Canopy no warm-up  the same with `canopy node --warm-wan off`: the connections carry nothing but the
#                    program's messages, so BBR (the hosts' congestion control here) paces large ones slowly
#   Canopy warm TCP  (only with --only canopy-warm) the same as idle with tcp_slow_start_after_idle=0 in
#                    every host (gridbed's *-warm spec): keeps CUBIC's window over idle periods; BBR
#                    ignores the sysctl
#   Open MPI default / forced binomial   gridbed's mpibench via gbmpirun
# Every run brings gridbed up for itself and takes it down afterwards (also on failure or Ctrl-C).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
gridbed=/tmp/gridbed
sizes=2,1024,65536,1048576
iterations=20
out=""
only=""
spec_name=grid8
hosts=""
algorithm=auto   # Canopy's heavy-WAN tree (the level file's heavy_wan), planned per message size
warm_wan=auto    # canopy node --warm-wan of the fresh column (off, auto or bytes per WAN connection direction)

while [[ $# -gt 0 ]]; do
  case $1 in
    --gridbed) gridbed=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --spec) spec_name=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --algorithm) algorithm=$2; shift 2 ;;
    --warm-wan) warm_wan=$2; shift 2 ;;
    *) echo "run.sh: unknown argument '$1' (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
[[ $(id -u) -eq 0 ]] || { echo "run.sh: gridbed needs root (network namespaces, iptables)" >&2; exit 2; }
[[ -x $gridbed/gridbed && -x $gridbed/wand && -x $gridbed/mpibench ]] || {
  echo "run.sh: no built gridbed in $gridbed; cp -r ../shared/gridbed $gridbed && (cd $gridbed && ./gridbed build)" >&2; exit 2; }
[[ -r $gridbed/$spec_name.spec && -r $gridbed/$spec_name-warm.spec ]] || {
  echo "run.sh: $gridbed has no $spec_name.spec and $spec_name-warm.spec" >&2; exit 2; }
[[ $sizes =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "run.sh: --sizes '$sizes' must be byte counts separated by commas" >&2; exit 2; }
[[ $iterations =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --iterations '$iterations' must be a positive number" >&2; exit 2; }
[[ $algorithm =~ ^[a-z_]+$ ]] || { echo "run.sh: --algorithm '$algorithm' is not a tree name (auto, spt, hlot, binomial, ...)" >&2; exit 2; }
[[ $warm_wan =~ ^(off|auto|[0-9]+)$ ]] || { echo "run.sh: --warm-wan '$warm_wan' must be off, auto or a byte count" >&2; exit 2; }
[[ -z $hosts || $hosts =~ ^[1-9][0-9]?$ ]] || { echo "run.sh: --hosts '$hosts' must be 1 to 99" >&2; exit 2; }
out=${out:-$(mktemp -d /tmp/canopy-gridbed.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The two specs, as given or with --hosts per site (the matrix path made absolute).
spec_path() { # idle|warm
  local spec=$gridbed/$spec_name.spec
  [[ $1 == warm ]] && spec=$gridbed/$spec_name-warm.spec
  if [[ -z $hosts ]]; then echo "$spec"; return; fi
  local copy=$out/$(basename "${spec%.spec}")-h$hosts.spec
  sed -E -e "s|^([[:space:]]*hosts[[:space:]]*=).*|\1 $hosts|" \
      -e "s|^([[:space:]]*matrix[[:space:]]*=[[:space:]]*)([^/].*)|\1$gridbed/\2|" "$spec" >"$copy"
  echo "$copy"
}

"$repo/canopy" --version >/dev/null   # builds cli/target/canopy.jar when it is missing or stale
jar=$repo/cli/target/canopy.jar
# canopy launch's options for its rank JVMs: 16 of them start on this machine's cores at once
java_opts=${CANOPY_GRIDBED_JAVA_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k -Xmx256m}
# CANOPY_GRIDBED_NICE=-5 runs ZooKeeper, the nodes and mpirun (and so its orteds and ranks) at that
# niceness: on a machine busy with other work, JVMs starved for seconds lost their ZooKeeper sessions
# (4 s) and heartbeats (5 s). Both sides of the comparison get the same.
nice=${CANOPY_GRIDBED_NICE:-0}
[[ $nice =~ ^-?[0-9]+$ ]] || { echo "run.sh: CANOPY_GRIDBED_NICE '$nice' must be a number (-20 to 19)" >&2; exit 2; }
stagger=${CANOPY_GRIDBED_STAGGER:-1}   # seconds between node starts, so they do not all load classes at once
# A class-data-sharing archive of the classes a node loads (dumped by one `canopy demo --quick`): on a
# crowded machine, loading and verifying them from the 37 MB jar kept nodes from reaching the start
# barrier (60 s) and their ZooKeeper sessions (4 s) alive.
archive=$repo/cli/target/canopy-node.jsa
if [[ ! -f $archive || $archive -ot $jar ]]; then
  echo "run.sh: dumping the class-data-sharing archive $archive (once per build) ..." >&2
  rm -f "$archive"
  java -XX:ArchiveClassesAtExit="$archive" $java_opts -jar "$jar" demo --quick >"$out/cds-dump.log" 2>&1 || {
    tail -20 "$out/cds-dump.log" >&2; echo "run.sh: canopy demo --quick failed while dumping $archive" >&2; exit 1; }
fi
java_opts="$java_opts -XX:SharedArchiveFile=$archive"

pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
  (cd "$gridbed" && ./gridbed down >/dev/null 2>&1) || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

up() {
  (cd "$gridbed" && ./gridbed down >/dev/null 2>&1 || true; ./gridbed up "$1" >"$out/gridbed-up.log" 2>&1) || {
    cat "$out/gridbed-up.log" >&2; echo "run.sh: gridbed up $1 failed" >&2; exit 1; }
}

# ZooKeeper in the router namespace, which every host reaches without the delay router.
start_zookeeper() {
  local data=$out/zk-$1
  rm -rf "$data"; mkdir -p "$data"
  printf 'tickTime=2000\ndataDir=%s\nclientPort=2181\nclientPortAddress=10.250.0.1\nadmin.enableServer=false\nmaxClientCnxns=0\n' \
    "$data" >"$data/zoo.cfg"
  nice -n "$nice" ip netns exec gb-r java -Xmx256m -cp "$jar" org.apache.zookeeper.server.ZooKeeperServerMain "$data/zoo.cfg" \
    >"$out/zk-$1.log" 2>&1 &
  pids+=($!)
  local deadline=$((SECONDS + 60))
  until ip netns exec gb-r bash -c 'exec 3<>/dev/tcp/10.250.0.1/2181' 2>/dev/null; do
    ((SECONDS < deadline)) || { echo "run.sh: ZooKeeper did not listen on 10.250.0.1:2181 within 60 s ($out/zk-$1.log)" >&2; exit 1; }
    sleep 0.5
  done
}

# One canopy node per emulated host; prints the root's RESULT lines.
run_canopy() { # label spec [canopy node options]
  local label=$1 spec=$2 name ns address site index process=0
  shift 2
  up "$spec"
  # the congestion control the hosts' TCP uses (namespaces inherit the machine's default)
  ip netns exec "$(awk '!/^#/ { print $2; exit }' "$gridbed/run/hosts")" sysctl -n net.ipv4.tcp_congestion_control \
    >"$out/tcp-congestion-control" 2>/dev/null || true
  start_zookeeper "$label"
  local rsl=$out/$label.rsl key=$out/$label.key
  "$here/grid-rsl.sh" "$gridbed/run" "$algorithm" >"$rsl"
  (umask 077; od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$key")
  local nodes=()
  while read -r name ns address site index; do
    [[ $name == \#* || -z $name ]] && continue
    # CANOPY_WARM_LOG=INFO: each node logs what its WAN warm-up sent and took, and how long it took
    (cd "$gridbed" && CANOPY_WARM_LOG=INFO exec nice -n "$nice" ./gridbed exec "$name" java $java_opts -Dcanopy.bcast.sizes="$sizes" \
      -Dcanopy.bcast.iterations="$iterations" -Dcanopy.bcast.guard-ms=1000 -jar "$jar" node --config "$rsl" \
      --process "$process" --zk 10.250.0.1:2181 --job "gridbed-$label-$$" --secret-file "$key" --host "$address" \
      "$@" --class dev.canopy.cli.bench.SynchronisedBcast) >"$out/$label-$process.log" 2>&1 &
    pids+=($!); nodes+=($!)
    process=$((process + 1))
    sleep "$stagger"
  done <"$gridbed/run/hosts"
  local failed=0 pid
  for pid in "${nodes[@]}"; do wait "$pid" || failed=1; done
  ((failed == 0)) || { echo "run.sh: a canopy node of '$label' failed; see $out/$label-*.log" >&2; exit 1; }
  grep '^RESULT' "$out/$label-0.log" >"$out/$label.results"
  cleanup
}

run_mpi() { # label spec [mca args]
  local label=$1 spec=$2
  shift 2
  up "$spec"
  (cd "$gridbed" && nice -n "$nice" ./gbmpirun "$@" ./mpibench -o bcast -s "$sizes" -i "$iterations" -g 1000) >"$out/$label.txt" 2>&1 || {
    cat "$out/$label.txt" >&2; echo "run.sh: mpibench '$label' failed" >&2; exit 1; }
  cleanup
}

echo "run.sh: raw outputs in $out" >&2
wanted() { [[ ,$only, == *,$1,* || ($1 != canopy-warm && (-z $only || ($only == canopy && $1 == canopy-*)
              || ($only == mpi && $1 == mpi-*))) ]]; }
wanted canopy-idle && run_canopy canopy-idle "$(spec_path idle)" --warm-wan "$warm_wan"
wanted canopy-nowarm && run_canopy canopy-nowarm "$(spec_path idle)" --warm-wan off
wanted canopy-warm && run_canopy canopy-warm "$(spec_path warm)"
wanted mpi-default && run_mpi mpi-default "$(spec_path idle)"
# Open MPI 4.1 coll/tuned bcast algorithm 6 = binomial tree
wanted mpi-binomial && run_mpi mpi-binomial "$(spec_path idle)" --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 6
lower=$(cd "$gridbed" && ./models.py "$(spec_path idle)" | awk '/SPT\(lower bound\)/ { print $3 }')

canopy_ms() { # label size -> median (min-max)
  [[ -r $out/$1.results ]] || { echo "-"; return; }
  awk -v size="$2" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                      if (v["size"] == size) printf "%s (%s-%s)", v["sync_median_ms"], v["sync_min_ms"], v["sync_max_ms"] }' \
      "$out/$1.results"
}
mpi_ms() { # label size -> median (min-max)
  [[ -r $out/$1.txt ]] || { echo "-"; return; }
  awk -v size="$2" '$1 == "bcast" && $2 == size { printf "%.1f (%.1f-%.1f)", $5, $4, $6 }' "$out/$1.txt"
}

echo "bcast on gridbed $spec_name (${hosts:-as in the spec} hosts per site), root ${lower:+at the first host; lower bound }${lower:-?} ms; sync median (min-max) of $iterations iterations in ms"
echo "table printed $(date -u +%Y-%m-%dT%H:%MZ) (raw outputs in $out), TCP congestion control $(cat "$out/tcp-congestion-control" 2>/dev/null || echo '?'), niceness $nice, $(nproc) CPUs ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
warm_tcp=""; [[ -r $out/canopy-warm.results ]] && warm_tcp=" Canopy $algorithm, warm TCP |"
echo "| size (B) | lower bound | Canopy $algorithm, fresh (--warm-wan $warm_wan) | Canopy $algorithm, no warm-up |$warm_tcp Open MPI default | Open MPI binomial |"
echo "| ---: | ---: | ---: | ---: |${warm_tcp:+ ---: |} ---: | ---: |"
for size in ${sizes//,/ }; do
  bound=$lower
  ((size > 1024)) && bound="$lower + transfer"
  warm_cell=""; [[ -n $warm_tcp ]] && warm_cell=" $(canopy_ms canopy-warm "$size") |"
  echo "| $size | $bound | $(canopy_ms canopy-idle "$size") | $(canopy_ms canopy-nowarm "$size") |$warm_cell $(mpi_ms mpi-default "$size") | $(mpi_ms mpi-binomial "$size") |"
done
