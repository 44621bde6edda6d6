#!/usr/bin/env bash
# The protocol that compares search designs through the flips of single games: each design
# plays every generated seed (clean of the contest sequence: the tuner must accept them) at
# every width, and the contest sequence held out; per design and width it prints the mean,
# minimum and maximum score over the seeds, the share of lines cleared by four-line clears,
# the mean fill at clears (cells on the board after the clearing lock), and the CPU time per
# state expanded.
#
# Usage: bench/flips.sh NAME='solve options' [NAME='solve options' ...]
#   e.g. bench/flips.sh base= wide-well='--weights /tmp/w.json'
# Environment: SEEDS (default 1,2,4,5,6,9,10,11; "none" for the contest alone), WIDTHS (default 300 1000 5000),
# CONTEST_WIDTHS (default: WIDTHS; "none" for none), PIECES (default 10000), JOBS (solves run
# at once, one thread each; default 2), OUT (a directory that keeps every run's JSON and its
# record, NAME.INPUT.WIDTH.json and .txt, for `check` or bench/accounting.sh afterwards; default
# a temporary one). Runs already in OUT are not run again, so an interrupted protocol resumes.
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin solve --bin gen --bin tune
bin="${CARGO_TARGET_DIR:-target}/release"
[ $# -gt 0 ] || { echo "usage: bench/flips.sh NAME='solve options' ..." >&2; exit 2; }
seeds="${SEEDS:-1,2,4,5,6,9,10,11}"
widths=(${WIDTHS:-300 1000 5000})
contest_widths=(${CONTEST_WIDTHS:-${widths[*]}})
[ "${contest_widths[*]}" != none ] || contest_widths=()
pieces="${PIECES:-10000}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out/inputs"

# The tuner refuses a seed whose sequence runs into the contest's: ask it, with a beam of 1.
if [ "$seeds" = none ]; then seeds=""; else
  "$bin/tune" --seeds "$seeds" --pieces "$pieces" --beam-widths 1 --holdout none \
    --log "$out/seed-check.jsonl" --best-weights "$out/seed-check.json" > /dev/null \
    2> "$out/seed-check.err" || { cat "$out/seed-check.err" >&2; exit 2; }
  rm -f "$out"/seed-check.*
fi
for seed in ${seeds//,/ }; do
  "$bin/gen" --seed "$seed" --count "$pieces" > "$out/inputs/seed-$seed.txt"
done
"$bin/gen" --count "$pieces" > "$out/inputs/contest.txt"

# One line per run: design, input, width, options.
jobs="$out/jobs.txt"
: > "$jobs"
for design in "$@"; do
  name="${design%%=*}"
  [ "$name" != "$design" ] || { echo "a design is NAME='options', not '$design'" >&2; exit 2; }
  for w in "${widths[@]}"; do
    for seed in ${seeds//,/ }; do printf '%s\t%s\t%s\t%s\n' "$name" "seed-$seed" "$w" "${design#*=}" >> "$jobs"; done
  done
  for w in "${contest_widths[@]}"; do printf '%s\t%s\t%s\t%s\n' "$name" contest "$w" "${design#*=}" >> "$jobs"; done
done

run() {
  IFS=$'\t' read -r name input width options <<< "$1"
  json="$out/$name.$input.$width.json"
  [ -s "$json" ] && return 0
  # shellcheck disable=SC2086
  /usr/bin/time -f '%U %S' -o "$json.time" "$bin/solve" "$out/inputs/$input.txt" \
    --beam-width "$width" --threads 1 --quiet --json "$json.part" $options \
    > "$out/$name.$input.$width.txt"
  python3 - "$json.part" "$json.time" "$json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
user, sys_ = open(sys.argv[2]).read().split()[-2:]
j["cpu_seconds"] = float(user) + float(sys_)
json.dump(j, open(sys.argv[3], "w"))
PY
  rm -f "$json.part" "$json.time"
}
export -f run
export bin out
tr '\n' '\0' < "$jobs" | xargs -0 -P "${JOBS:-2}" -I{} bash -c 'run "$1"' _ {}

python3 - "$out" "$jobs" <<'PY'
import json, sys, statistics
out, jobs = sys.argv[1], sys.argv[2]
rows = {}
for line in open(jobs):
    name, input_, width, _ = line.rstrip("\n").split("\t")
    j = json.load(open(f"{out}/{name}.{input_}.{width}.json"))
    rows.setdefault((name, int(width)), []).append((input_, j))
def fill(js):
    clears = [c for j in js for c in j["contest"]["stats"]["clears"]]
    return f"{sum(c['filled_total'] for c in clears) / max(sum(c['count'] for c in clears), 1):.1f}"
print(f"{'design':<16} {'width':>6} {'mean':>10} {'min':>10} {'max':>10} {'4-line %':>8} {'fill':>6} {'us/state':>8} {'contest':>10} {'4-line %':>8} {'fill':>6}")
for (name, width), runs in rows.items():
    seeds = [j for i, j in runs if i != "contest"]
    contest = [j for i, j in runs if i == "contest"]
    cell = lambda v: f"{v:>10}"
    if seeds:
        scores = [j["score"] for j in seeds]
        lines = sum(j["lines"] for j in seeds)
        tetris = sum(4 * j["contest"]["clears"][3] for j in seeds)
        cpu = sum(j["cpu_seconds"] for j in seeds) / sum(j["expanded"] for j in seeds)
        mean, low, high = f"{statistics.mean(scores):.0f}", min(scores), max(scores)
        share, us = f"{100 * tetris / max(lines, 1):.1f}", f"{cpu * 1e6:.2f}"
        seeds_fill = fill(seeds)
    else:
        mean = low = high = share = us = seeds_fill = "-"
    c, c_share, c_fill = "-", "-", "-"
    if contest:
        c = contest[0]["score"]
        c_share = f"{400 * contest[0]['contest']['clears'][3] / max(contest[0]['lines'], 1):.1f}"
        c_fill = fill(contest)
    print(f"{name:<16} {width:>6} {mean:>10} {low!s:>10} {high!s:>10} {share:>8} {seeds_fill:>6} {us:>8} {c!s:>10} {c_share:>8} {c_fill:>6}")
PY
echo "runs kept in $out" >&2
