#!/usr/bin/env bash
# Benchmark (i): survival on the contest's rules with the piece limit lifted. Solves generated
# contest sequences of 100,000 pieces (`gen --seed S --count 100000`) with `--objective
# survive --beam-width 50` on one thread and prints, per sequence: pieces placed, the score,
# seconds and peak memory, and whether `check` scores the record as `solve` claimed (same
# score, same pieces). The default seeds are ten that `tune` accepts (none runs into the
# contest sequence) and that the survival weights were not tuned on.
# Usage: bash bench/survive.sh [SEEDS...]   (default: 1 2 4 5 6 9 10 21 23 24)
# Environment: PIECES (default 100000), WIDTH (default 50), SOLVE_ARGS (extra solve options).
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bins
bin="${CARGO_TARGET_DIR:-target}/release"
pieces="${PIECES:-100000}"
width="${WIDTH:-50}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 4 5 6 9 10 21 23 24)
printf '%-5s %-8s %-10s %-8s %-8s %s\n' seed pieces score seconds peakMiB checked
for seed in "${seeds[@]}"; do
  "$bin/gen" --seed "$seed" --count "$pieces" > "$work/seq.txt"
  /usr/bin/time -f '%e %M' -o "$work/time" \
    "$bin/solve" "$work/seq.txt" --objective survive --beam-width "$width" --piece-limit 0 \
    --threads 1 --quiet --json "$work/solve.json" ${SOLVE_ARGS:-} > "$work/moves.txt"
  read -r seconds kib < "$work/time"
  "$bin/check" "$work/seq.txt" "$work/moves.txt" --piece-limit 0 --json > "$work/check.json" || true
  python3 - "$seed" "$seconds" "$kib" "$work/solve.json" "$work/check.json" <<'PY'
import json, sys
seed, seconds, kib = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
solve, check = (json.load(open(p)) for p in sys.argv[4:6])
same = check["valid"] and (check["score"], check["pieces_placed"]) == (solve["score"], solve["pieces_placed"])
print(f"{seed:<5} {check['pieces_placed']:<8} {check['score']:<10} {seconds:<8.1f} {kib/1024:<8.0f} {'yes' if same else 'NO'}")
PY
done
