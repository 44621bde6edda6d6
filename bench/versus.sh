#!/usr/bin/env bash
# Benchmark (m): this tree's solver against a named older commit, interleaved (old, new, old,
# new, ...) so that both meet the same load. Per game, the medians of CPU seconds, CPU per
# state expanded, peak RSS and bytes per beam state, and the old/new ratios (above 1: the new
# build is cheaper); every pair of records must be byte-identical, or the script says which
# differ.
#   contest:  solve inputs/tencent.txt --beam-width $WIDTH --pieces $PIECES --threads 1
#   olympiad: solve --game olympiad (gen --game olympiad --seed 1 --count $OLYMPIAD_PIECES),
#             width 50 (one thread, as every beam under 256 states)
# Usage: bench/versus.sh REF [ROUNDS]   (ROUNDS default 5; WIDTH 20000, PIECES 300,
#   OLYMPIAD_PIECES 100000; GAMES="contest olympiad")
# REF is built once into target/versus/<commit> (a git worktree); this tree as usual.
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:?usage: bench/versus.sh REF [ROUNDS]}
rounds=${2:-5}
width=${WIDTH:-20000}
pieces=${PIECES:-300}
olympiad_pieces=${OLYMPIAD_PIECES:-100000}
games=${GAMES:-contest olympiad}
commit=$(git rev-parse --verify "$ref^{commit}")
target=$(realpath -m "${CARGO_TARGET_DIR:-target}")
cargo build --release --quiet --bins
new="$target/release"
old_tree="$target/versus/$commit"
if [ ! -x "$old_tree/target/release/solve" ]; then
  rm -rf "$old_tree"
  git worktree add --detach --force "$old_tree" "$commit" > /dev/null
  (cd "$old_tree" && CARGO_TARGET_DIR="$old_tree/target" cargo build --release --quiet --bin solve)
fi
old="$old_tree/target/release"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$new/gen" --game olympiad --seed 1 --count "$olympiad_pieces" > "$work/olympiad.txt"

args_of() {
  case $1 in
    contest) echo "inputs/tencent.txt --beam-width $width --pieces $pieces --threads 1" ;;
    olympiad) echo "--game olympiad $work/olympiad.txt --beam-width 50" ;;
  esac
}
width_of() { [ "$1" = contest ] && echo "$width" || echo 50; }

# One run: appends "cpu_s rss_kib expanded" to $work/GAME.BUILD and keeps the record.
run() {
  local game=$1 build=$2 bin=$3
  # shellcheck disable=SC2046
  /usr/bin/time -f '%U %S %M' -o "$work/time" "$bin/solve" $(args_of "$game") --quiet \
    --force --json "$work/json" > "$work/$game.$build.txt"
  python3 - "$work/time" "$work/json" >> "$work/$game.$build" <<'PY'
import json, sys
user, sys_, rss = open(sys.argv[1]).read().split()
j = json.load(open(sys.argv[2]))
expanded = j.get("expanded") or j.get("states_expanded") or 0
print(float(user) + float(sys_), rss, expanded)
PY
}

uptime
echo "old: $ref ($commit); new: this tree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', modified'))"
for game in $games; do
  for ((r = 0; r < rounds; r++)); do
    run "$game" old "$old"
    run "$game" new "$new"
    if ! cmp -s "$work/$game.old.txt" "$work/$game.new.txt"; then
      echo "$game: the records differ (round $((r + 1)))"
    fi
  done
done
uptime
printf '%-9s %-5s %8s %10s %9s %12s\n' game build cpu_s us/state rss_mib bytes/state
for game in $games; do
  python3 - "$work/$game.old" "$work/$game.new" "$game" "$(width_of "$game")" <<'PY'
import statistics, sys
game, width = sys.argv[3], int(sys.argv[4])
medians = {}
for build, path in (("old", sys.argv[1]), ("new", sys.argv[2])):
    rows = [line.split() for line in open(path)]
    cpu = statistics.median(float(r[0]) for r in rows)
    rss = statistics.median(int(r[1]) for r in rows) * 1024
    expanded = int(rows[0][2])
    per_state = cpu * 1e6 / expanded if expanded else float("nan")
    medians[build] = (cpu, rss)
    print(f"{game:<9} {build:<5} {cpu:8.2f} {per_state:10.3f} {rss / 2**20:9.1f} {rss / width:12.0f}")
ratios = [o / n for o, n in zip(medians["old"], medians["new"])]
print(f"{game:<9} old/new CPU {ratios[0]:.3f}, peak {ratios[1]:.3f}")
PY
done
