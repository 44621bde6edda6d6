#!/usr/bin/env bash
# 1 vs 2 threads, robust to this kind of VM's drifting speed: runs `solve --threads 1`,
# `--threads 2`, and two `--threads 1` solves at once, alternately REPS times, and compares the
# fastest of each. The pair shows what the host gives two independent single-thread jobs at that
# time: 2 x (one alone) / (pair) is the ceiling no parallel code can pass, so the speed-up is
# reported against it too.
# Usage: bench/threads.sh [BEAM_WIDTH [PIECES [REPS]]]   (default: 10000 1500 3)
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin solve
solve="${CARGO_TARGET_DIR:-target}/release/solve"
k=${1:-10000}
pieces=${2:-1500}
reps=${3:-3}
run() {
  /usr/bin/time -f "$1 %e %U" "$solve" inputs/tencent.txt --beam-width "$k" \
    --pieces "$pieces" --threads "$2" --quiet 2>&1 >/dev/null | tail -1
}
for _ in $(seq "$reps"); do
  run 1 1
  run 2 2
  # The pair's time is its slower solve's.
  (run pair 1 & run pair 1 & wait) | sort -k2,2n | tail -1
done | sort -k1,1 -k2,2n | awk -v k="$k" -v p="$pieces" -v r="$reps" '
  !($1 in wall) { wall[$1] = $2; user[$1] = $3 }
  END {
    speedup = wall[1] / wall[2]
    ceiling = 2 * wall[1] / wall["pair"]
    printf "K=%s, %s pieces, fastest of %s: 1 thread %.2f s (CPU %.2f s), 2 threads %.2f s (CPU %.2f s): %.2fx\n",
      k, p, r, wall[1], user[1], wall[2], user[2], speedup
    printf "two 1-thread solves at once: %.2f s each: host ceiling %.2fx; the 2-thread solve reaches %.0f%% of it\n",
      wall["pair"], ceiling, 100 * speedup / ceiling
  }'
