#!/usr/bin/env bash
# NES Tetris past the transition: solve several starts until a level (default 256, the level
# counter's wrap to 0) or the game's end, and print per game how far it got, the score and
# lines at level 39 and 155 and at the end, the share of lines in fours and the time; then the
# means. Every record is checked by `check --game nes`, whose figures are the ones printed;
# bench/nes-oracle.sh then plays the records on the ROM.
#   bench/nes-long.sh [WIDTH] [START...]        START = LEVEL:WAIT
#   e.g. UNTIL=256 OUT=target/nes-long bench/nes-long.sh 1000 19:0 19:20 18:0 18:20
# CHANGES=DEPTH:WIDTH,... passes a width schedule to every game (`solve --width-changes`).
# Two games run at a time, one thread each (JOBS); the records stay in OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
width="${1:-1000}"; shift $(( $# < 1 ? $# : 1 ))
starts=("$@"); [ ${#starts[@]} -gt 0 ] || starts=(19:0 19:20 19:40 19:60 18:0 18:20 18:40 18:60)
until_level="${UNTIL:-256}"; jobs="${JOBS:-2}"; out="${OUT:-target/nes-long}"
model="${MODEL:-tap:2}"
changes="${CHANGES:+--width-changes $CHANGES}"
mkdir -p "$out"
cargo build --release -q --bin solve --bin check
run() {
  local level="${1%%:*}" wait="${1##*:}"
  local name="$out/level$level-wait$wait-w$width"
  [ -s "$name.json" ] && return 0
  local began; began=$(date +%s.%N)
  target/release/solve --game nes --start-level "$level" --title-wait "$wait" --input-model "$model" \
    --beam-width "$width" $changes --until-level "$until_level" --threads 1 --quiet > "$name.txt"
  echo "$(date +%s.%N) - $began" | bc > "$name.seconds"
  target/release/check --game nes --json "$name.txt" > "$name.json"
}
export -f run; export out width until_level model changes
printf '%s\n' "${starts[@]}" | xargs -P "$jobs" -I{} bash -c 'run {}'
python3 - "$out" "$width" "$until_level" "${starts[@]}" <<'PY'
import json, sys
out, width, until, starts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
until = 65535 if until == "end" else int(until)
print(f"{'start':<6} {'wait':<5} {'level':>5} {'lines':>5} {'end':<12} {'at 39':>10} {'at 155':>11} {'score':>12} {'fours':>6} {'s':>6}")
rows = []
for s in starts:
    level, wait = s.split(":")
    name = f"{out}/level{level}-wait{wait}-w{width}"
    j = json.load(open(name + ".json"))
    r = {**j["nes"], "score": j["score"], "lines": j["lines"], "end": j["end"]["reason"]}
    m = {x["level"]: x for x in r["milestones"]}
    c = r["clears"]
    cleared = c[0] + 2 * c[1] + 3 * c[2] + 4 * c[3]
    fours = 100.0 * 4 * c[3] / cleared if cleared else 0.0
    secs = float(open(name + ".seconds").read())
    end = {"record_ended": "record ends", "topped_out": "topped out", "crashed": "CRASH"}[r["end"]]
    if r["end"] == "record_ended" and r["level_count"] >= until:
        end = "reached"
    at = lambda l: f"{m[l]['score']:,}" if l in m else "-"
    print(f"{level:<6} {wait:<5} {r['level_count']:>5} {r['lines']:>5} {end:<12} {at(39):>10} {at(155):>11} {r['score']:>12,} {fours:5.1f}% {secs:6.0f}")
    rows.append((r, m, secs))
n = len(rows)
r39 = [m[39] for _, m, _ in rows if 39 in m]
print(f"{n} games: {len(r39)} reach level 39 (mean score there {sum(x['score'] for x in r39) / max(1, len(r39)):,.0f}, "
      f"mean lines {sum(x['lines'] for x in r39) / max(1, len(r39)):.0f}); "
      f"{sum(1 for _, m, _ in rows if 155 in m)} pass level 155; {sum(1 for _, m, _ in rows if 256 in m)} reach the wrap; "
      f"mean final score {sum(r['score'] for r, _, _ in rows) / n:,.0f}; mean {sum(s for _, _, s in rows) / n:.0f} s a game")
PY
