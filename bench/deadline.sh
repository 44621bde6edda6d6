#!/usr/bin/env bash
# How well --time-budget holds its deadline: for each budget (seconds; default 5, 30 and 120)
# one solve of each game with it,
#   contest   inputs/tencent.txt
#   nes       --game nes --until-level 60
#   olympiad  a generated sequence of OLYMPIAD_PIECES pieces (default 1,000,000)
# at the game's default first width (WIDTH sets another), and prints per run the budget, the
# wall seconds of the whole process (start-up and the record's check included), their ratio,
# the search's seconds, whether `solve` says it met the deadline, whether it warned that even
# width 1 was too slow, the last width it chose and the score.
# Usage: bench/deadline.sh [SECONDS...]   (SOLVE_ARGS adds options to every run)
set -euo pipefail
cd "$(dirname "$0")/.."
budgets=("$@")
[ ${#budgets[@]} -gt 0 ] || budgets=(5 30 120)
target="${CARGO_TARGET_DIR:-target}"
cargo build --release --quiet --bin solve --bin gen
solve="$target/release/solve"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$target/release/gen" --game olympiad --count "${OLYMPIAD_PIECES:-1000000}" > "$work/olympiad.txt"
width=()
[ -n "${WIDTH:-}" ] && width=(--beam-width "$WIDTH")

declare -A games=(
  [contest]="inputs/tencent.txt"
  [nes]="--game nes --until-level 60"
  [olympiad]="--game olympiad $work/olympiad.txt"
)

printf '%-9s %7s %8s %6s %8s %-5s %-6s %-6s %s\n' \
  game budget wall ratio search met warned width score
for budget in "${budgets[@]}"; do
  for game in contest nes olympiad; do
    json="$work/$game-$budget.json"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$solve" ${games[$game]} "${width[@]}" --time-budget "$budget" --json "$json" \
      --progress-every 0 ${SOLVE_ARGS:-} > "$work/record.txt" 2> "$work/stderr.txt"
    end=$(date +%s.%N)
    python3 - "$json" "$game" "$budget" "$start" "$end" "$work/stderr.txt" <<'PY'
import json, sys
path, game, budget, start, end, stderr = sys.argv[1:]
s = json.load(open(path))
d = s["deadline"]
wall = float(end) - float(start)
changes = s["width_changes"]
last = changes.split(",")[-1].split(":")[1] if changes else s["beam_width"]
err = open(stderr).read()
scores = [l for l in err.splitlines() if l.startswith("Score = ")]
score = scores[-1].split()[-1] if scores else "?"
warned = "warning: --time-budget" in err
print(f"{game:<9} {float(budget):7.1f} {wall:8.2f} {wall / float(budget):6.3f} "
      f"{d['search_seconds']:8.2f} {str(d['met']).lower():<5} {str(warned).lower():<6} "
      f"{last!s:<6} {score}")
PY
  done
done
