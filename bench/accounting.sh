#!/usr/bin/env bash
# Every clear of the flip protocol's records against the fluid optimum: runs `check --stats
# --json` on each record bench/flips.sh kept in OUT and prints, per design and width, one table
# with a row per sequence: the score and the fluid bound at the record's fullest board; the
# four-line clears, triples and doubles+singles with the mean fill (cells at the lock) at fours
# and at triples, of the record and of the bound's play; the record's mean fill at every lock
# against the play's at the same pieces; and the diagnosis of its clears of 1-3 rows made on
# fewer cells than the play's at the same piece (how many, the mean cells short, and how many
# of each cause: holes, low, bumpy, surface; docs/RULES.md, "Clears against the bound's play").
# Then the means over the generated sequences, and the contest sequence's row apart, held out.
#
# Usage: bench/accounting.sh OUT
#   e.g. OUT=/tmp/runs bench/flips.sh base= && bench/accounting.sh /tmp/runs
# Each check's JSON is kept beside its record as NAME.INPUT.WIDTH.check.json. Honours
# CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] && [ -d "$1/inputs" ] || {
  echo "usage: bench/accounting.sh OUT (a directory bench/flips.sh kept its runs in)" >&2
  exit 2
}
out="$1"
cargo build --release --quiet --bin check
bin="${CARGO_TARGET_DIR:-target}/release"

shopt -s nullglob
records=()
for record in "$out"/*.*.*.txt; do
  base="${record%.txt}"
  [ -s "$base.json" ] || continue # a run flips.sh did not finish
  input="${base%.*}"
  input="${input##*.}"
  "$bin/check" --stats --json "$out/inputs/$input.txt" "$record" > "$base.check.json" || {
    echo "check failed on $record" >&2
    exit 1
  }
  records+=("$base.check.json")
done
[ ${#records[@]} -gt 0 ] || { echo "no finished run with its record in $out" >&2; exit 2; }

python3 - "${records[@]}" <<'PY'
import json, os, statistics, sys
NAN = float("nan")
CAUSES = ("holes", "low", "bumpy", "surface")

def sides(clears):
    """Fours, triples and doubles+singles, with the cells summed at fours and at triples."""
    return {"4": clears[3]["count"], "cells4": clears[3]["filled_total"],
            "3": clears[2]["count"], "cells3": clears[2]["filled_total"],
            "21": clears[1]["count"] + clears[0]["count"]}

def run(path):
    name, input_, width = os.path.basename(path)[: -len(".check.json")].rsplit(".", 2)
    j = json.load(open(path))
    s = j["contest"]["stats"]
    d = s["diagnosis"]
    r = {"score": j["score"], "bound": s["fluid_bound"] or NAN, "rec": sides(s["clears"]),
         "opt": sides(s["bound_play"] or [{"count": 0, "filled_total": 0}] * 4),
         "locks": d["every_lock"]["count"], "lock_cells": d["every_lock"]["filled_total"],
         "lock_cells_opt": d["every_lock"]["optimum_filled_total"],
         "short_cells": sum(c["cells_short_total"] for c in d["causes"].values())}
    r.update({k: d["causes"][k]["count"] for k in CAUSES})
    r["short"] = sum(r[k] for k in CAUSES)
    return (name, int(width)), input_, r

def total(rows):
    """The sums of every count and cell count over `rows`, and the mean score and bound."""
    t = {k: sum(r[k] for r in rows) for k in rows[0] if k not in ("rec", "opt")}
    t.update({k: statistics.mean(r[k] for r in rows) for k in ("score", "bound")})
    for side in ("rec", "opt"):
        t[side] = {k: sum(r[side][k] for r in rows) for k in rows[0][side]}
    return t

def line(label, r, n=1):
    """A row of the table: counts per sequence over `n` sequences, fills over every clear."""
    per = lambda count, cells: f"{count / n:.0f} ({cells / count:.1f})" if count else "0"
    side = lambda s: f"{per(s['4'], s['cells4'])} | {per(s['3'], s['cells3'])} | {s['21'] / n:.0f}"
    short = f"{r['short'] / n:.0f} ({r['short_cells'] / r['short']:.1f})" if r["short"] else "0"
    return (f"| {label} | {r['score']:,.0f} | {r['bound']:,.0f} | {100 * r['score'] / r['bound']:.1f}% "
            f"| {side(r['rec'])} | {side(r['opt'])} "
            f"| {r['lock_cells'] / r['locks']:.1f} / {r['lock_cells_opt'] / r['locks']:.1f} "
            f"| {short} | " + " | ".join(f"{r[k] / n:.0f}" for k in CAUSES) + " |")

head = ("| sequence | score | fluid bound | share | record: 4s (fill) | 3s (fill) | 2s+1s "
        "| optimum: 4s (fill) | 3s (fill) | 2s+1s | fill at every lock, record / optimum "
        "| short clears of 1-3 (cells short) | holes | low | bumpy | surface |")
tables = {}
for path in sys.argv[1:]:
    key, input_, r = run(path)
    tables.setdefault(key, []).append((input_, r))
for (name, width), runs in sorted(tables.items()):
    seeds = sorted(((int(i.split("-")[1]), r) for i, r in runs if i.startswith("seed-")))
    print(f"{name}, width {width:,}:\n")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for seed, r in seeds:
        print(line(f"seed {seed}", r))
    if seeds:
        print(line(f"mean of {len(seeds)}", total([r for _, r in seeds]), len(seeds)))
    for input_, r in runs:
        if input_ == "contest":
            print(line("contest (held out)", r))
    print()
PY
