#!/usr/bin/env bash
# The distributed search on this machine: one search of the first PIECES pieces of
# inputs/tencent.txt at beam width WIDTH, run as
#   plain    one process, the search without --distributed (2 threads)
#   solo     one process, --distributed without MPI (2 threads)
#   mpi-P-T  P MPI processes of T threads each (by default 1x2, 2x1, 4x1; P x T over 2 cores
#            is oversubscribed above 2)
# and prints per run: wall and CPU seconds, the peak memory of the largest process (and of
# each, by rank), the bytes sent per state kept and per depth, the seconds spent in exchanges
# against those of the search (process 0's), and the score. Over 2 cores, 4 or 8 processes are
# oversubscribed: their time is not a figure, their memory per process is. Every --distributed record must be byte-identical
# (checked with cmp); the plain search's may differ where ties fall.
# Usage: bench/distributed.sh [P:T ...]   (WIDTH=100000, PIECES=300 by default)
# Builds the MPI binary with --features mpi into target/mpi (needs openmpi-bin libopenmpi-dev
# libclang-dev); SOLVE_ARGS adds options to every run.
set -euo pipefail
cd "$(dirname "$0")/.."
width="${WIDTH:-100000}"
pieces="${PIECES:-300}"
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(1:2 2:1 4:1)
cargo build --release --quiet --bin solve
cargo build --release --quiet --features mpi --bin solve --target-dir target/mpi
plain=target/release/solve
mpi=target/mpi/release/solve
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(inputs/tencent.txt --beam-width "$width" --pieces "$pieces" --quiet --force ${SOLVE_ARGS:-})

# One run: NAME, then the command; each process writes its /usr/bin/time figures to
# $work/NAME.time.RANK.
run() {
  local name=$1
  shift
  local start end
  start=$(date +%s.%N)
  "$@" > "$work/$name.txt"
  end=$(date +%s.%N)
  python3 - "$work" "$name" "$start" "$end" "$width" "$pieces" <<'PY'
import glob, json, sys
work, name, start, end, width, pieces = sys.argv[1:]
files = sorted(glob.glob(f"{work}/{name}.time.*"), key=lambda f: int(f.rsplit(".", 1)[1]))
times = [list(map(float, open(f).read().split())) for f in files]
cpu = sum(t[1] + t[2] for t in times)
peak = max(t[3] for t in times) / 1024
peaks = "/".join(f"{t[3] / 1024:.0f}" for t in times)
j = json.load(open(f"{work}/{name}.json"))
d = j.get("distributed")
states = j["expanded"]
if d:
    procs = d["processes"]
    per_state = d["bytes"] * procs / states
    per_depth = d["bytes"] * procs / int(pieces) / 2**20
    exchange = f"{d['seconds']:9.1f}"
    traffic = f"{per_state:11.0f} {per_depth:11.1f}"
else:
    exchange, traffic = f"{'-':>9}", f"{'-':>11} {'-':>11}"
print(f"{name:<9} {float(end) - float(start):8.1f} {cpu:8.1f} {peak:9.0f} {traffic} "
      f"{exchange} {j['search_seconds']:9.1f} {j['score']:9}  {peaks}")
PY
}

echo "width $width, pieces $pieces, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %8s %8s %9s %11s %11s %9s %9s %9s  %s\n' \
  run wall_s cpu_s peak_mib bytes/state MiB/depth xchg_s search_s score peaks_by_rank
run plain /usr/bin/time -f '%e %U %S %M' -o "$work/plain.time.0" \
  "$plain" "${args[@]}" --threads 2 --json "$work/plain.json"
run solo /usr/bin/time -f '%e %U %S %M' -o "$work/solo.time.0" \
  "$plain" --distributed "${args[@]}" --threads 2 --json "$work/solo.json"
for config in "${configs[@]}"; do
  procs=${config%:*}
  threads=${config#*:}
  name="mpi-$procs-$threads"
  # mpirun binds each process to one core: the threads of one process need room.
  bind=()
  [ "$threads" -gt 1 ] && bind=(--bind-to none)
  run "$name" mpirun --oversubscribe "${root[@]}" "${bind[@]}" -np "$procs" \
    sh -c 'exec /usr/bin/time -f "%e %U %S %M" -o "$0.time.$OMPI_COMM_WORLD_RANK" "$@"' \
    "$work/$name" "$mpi" --distributed "${args[@]}" --threads "$threads" --json "$work/$name.json"
  cmp "$work/solo.txt" "$work/$name.txt" || { echo "$name: a different record"; exit 1; }
done
echo "every --distributed record byte-identical"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
