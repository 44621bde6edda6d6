#!/usr/bin/env bash
# 1 vs 2 threads, robust to this kind of VM's drifting speed: runs `solve --threads 1` and
# `--threads 2` alternately REPS times and compares the fastest of each.
# Usage: bench/threads.sh [BEAM_WIDTH [PIECES [REPS]]]   (default: 10000 1500 3)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin solve
k=${1:-10000}
pieces=${2:-1500}
reps=${3:-3}
for _ in $(seq "$reps"); do
  for t in 1 2; do
    /usr/bin/time -f "$t %e %U" ./target/release/solve inputs/tencent.txt --beam-width "$k" \
      --pieces "$pieces" --threads "$t" --quiet 2>&1 >/dev/null | tail -1
  done
done | sort -k1,1 -k2,2n | awk -v k="$k" -v p="$pieces" -v r="$reps" '
  !($1 in wall) { wall[$1] = $2; user[$1] = $3 }
  END {
    printf "K=%s, %s pieces, fastest of %s: 1 thread %.2f s (CPU %.2f s), 2 threads %.2f s (CPU %.2f s): %.2fx\n",
      k, p, r, wall[1], user[1], wall[2], user[2], wall[1] / wall[2]
  }'
