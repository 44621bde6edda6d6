#!/usr/bin/env bash
# NES Tetris: solve several starts to the level 29 transition and print, per game and on
# average, the score there (uncapped), the share of lines cleared in fours, and the time.
#   bench/nes.sh [LEVEL] [MODEL] [WIDTH] [WAITS...]
#   e.g. bench/nes.sh 19 tap:2 2000 0 20 40 60 80 100 120 140
# Every record is checked by `check --game nes`, whose score is the one printed.
set -euo pipefail
cd "$(dirname "$0")/.."
level="${1:-19}"; model="${2:-tap:2}"; width="${3:-2000}"; shift $(( $# < 3 ? $# : 3 ))
waits=("$@"); [ ${#waits[@]} -gt 0 ] || waits=(0 20 40 60 80 100 120 140)
cargo build --release -q --bin solve --bin check
out="$(mktemp -d)"
printf "%-6s %-6s %-7s %-6s %10s %7s %6s %8s\n" level wait model width score fours lines seconds
for w in "${waits[@]}"; do
  start=$(date +%s.%N)
  target/release/solve --game nes --start-level "$level" --title-wait "$w" --input-model "$model" \
    --beam-width "$width" --quiet > "$out/$w.txt"
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  json=$(target/release/check --game nes --json "$out/$w.txt")
  echo "$json" | python3 -c '
import json, sys
r = json.load(sys.stdin)["nes"]
t = r["transition"]
c = r["clears"]
cleared = c[0] + 2 * c[1] + 3 * c[2] + 4 * c[3]
fours = 100.0 * 4 * c[3] / cleared if cleared else 0.0
score = t["score"] if t else 0
level, wait, model, width, secs = sys.argv[1:6]
note = "" if t else "  (no transition)"
print(f"{level:<6} {wait:<6} {model:<7} {width:<6} {score:>10} {fours:6.1f}% {cleared:>6} {float(secs):8.1f}{note}")
' "$level" "$w" "$model" "$width" "$secs"
done | tee "$out/table.txt"
python3 - "$out/table.txt" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
scores = [int(r[4]) for r in rows]
fours = [float(r[5].rstrip('%')) for r in rows]
reached = sum(1 for l in open(sys.argv[1]) if "no transition" not in l)
print(f"mean score at the transition {sum(scores) / len(scores):,.0f} (min {min(scores):,}, max {max(scores):,}); "
      f"fours {sum(fours) / len(fours):.1f}% of lines; {reached}/{len(rows)} games reach the transition")
PY
rm -rf "$out"
