#!/usr/bin/env bash
# Benchmark (g): the browser game's default solve on generated 7-bag sequences of 10,000
# pieces (`gen --game browser --seed S`): pieces placed, lines (the most possible is 4,000),
# seconds and peak memory per sequence, each record checked by `check --game browser`.
# Usage: bash bench/browser.sh [SEEDS...]   (default: seeds 1-10)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bins
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5 6 7 8 9 10)
printf '%-5s %-7s %-6s %-8s %-8s %s\n' seed pieces lines seconds peakMiB checked
for seed in "${seeds[@]}"; do
  target/release/gen --game browser --seed "$seed" > "$work/seq.txt"
  /usr/bin/time -f '%e %M' -o "$work/time" \
    target/release/solve --game browser "$work/seq.txt" --quiet > "$work/moves.txt"
  read -r seconds kib < "$work/time"
  target/release/check --game browser "$work/seq.txt" "$work/moves.txt" --json > "$work/check.json"
  python3 - "$seed" "$seconds" "$kib" "$work/check.json" <<'PY'
import json, sys
seed, seconds, kib, path = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r = json.load(open(path))
print(f"{seed:<5} {r['pieces_placed']:<7} {r['lines']:<6} {seconds:<8.1f} {kib/1024:<8.0f} {'yes' if r['valid'] else 'NO'}")
PY
done
