#!/usr/bin/env bash
# Benchmark (m): this tree's solver against a named older commit, interleaved (old, new, old,
# new, ...) so that both meet the same load. Per game and build, the medians of CPU seconds,
# CPU per state expanded, peak RSS and bytes per beam state, and the old/new ratios (above 1:
# the new build is cheaper); every record must be byte-identical to the old native build's, or
# the script says which differ.
#   contest:  solve inputs/tencent.txt --beam-width $WIDTH --pieces $PIECES --threads 1
#   olympiad: solve --game olympiad (gen --game olympiad --seed 1 --count $OLYMPIAD_PIECES),
#             width 50 (one thread, as every beam under 256 states)
# Two builds of each tree: the native one (the project's `target-cpu=native`) and an AVX2 one
# (`target-cpu=x86-64-v3`: AVX2, BMI2, no AVX-512), what users' CPUs without AVX-512 run; a
# gain that rides one CPU's vector unit shows as a native ratio the AVX2 one lacks. On the AVX2
# builds, valgrind counts the instructions per state expanded (these VMs expose no hardware
# counters; valgrind decodes no AVX-512): the difference between a small run and one of twice
# its width, over the states between them, so start-up work (reading, the fill plan's table)
# cancels. Instructions do not move with the load: a gain there is fewer instructions, not a
# quieter machine or a wider vector.
#   counted contest:  width $COUNT_WIDTH and twice that (default 1000), 100 pieces
#   counted olympiad: width 50 and 100 over the first 10,000 of its pieces
# Usage: bench/versus.sh REF [ROUNDS]   (ROUNDS default 5; WIDTH 20000, PIECES 300,
#   OLYMPIAD_PIECES 100000; GAMES="contest olympiad"; AVX2=0 leaves out the AVX2 builds and
#   the counts; valgrind missing, the counts are left out and the script says so)
# REF is built once into target/versus/<commit> (a git worktree), this tree's AVX2 build into
# target/avx2.
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
avx2=${AVX2:-1}
avx2_flags="-C target-cpu=x86-64-v3"
cargo build --release --quiet --bins
new="$target/release"
old_tree="$target/versus/$commit"
if [ ! -x "$old_tree/target/release/solve" ]; then
  rm -rf "$old_tree"
  git worktree add --detach --force "$old_tree" "$commit" > /dev/null
  (cd "$old_tree" && CARGO_TARGET_DIR="$old_tree/target" cargo build --release --quiet --bin solve)
fi
old="$old_tree/target/release"
builds="old new"
if [ "$avx2" != 0 ]; then
  # RUSTFLAGS replaces the project's `target-cpu=native` rather than adding to it.
  RUSTFLAGS="$avx2_flags" CARGO_TARGET_DIR="$target/avx2" cargo build --release --quiet --bin solve
  (cd "$old_tree" && RUSTFLAGS="$avx2_flags" CARGO_TARGET_DIR="$old_tree/target-avx2" \
    cargo build --release --quiet --bin solve)
  builds="old new old-avx2 new-avx2"
fi
bin_of() {
  case $1 in
    old) echo "$old" ;;
    new) echo "$new" ;;
    old-avx2) echo "$old_tree/target-avx2/release" ;;
    new-avx2) echo "$target/avx2/release" ;;
  esac
}
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

# The instructions one run of BUILD executes under valgrind, and the states it expands.
counted() {
  local game=$1 build=$2 w=$3 args
  case $game in
    contest) args="inputs/tencent.txt --pieces 100" ;;
    olympiad) args="--game olympiad $work/olympiad.txt --pieces 10000" ;;
  esac
  # shellcheck disable=SC2086
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$(bin_of "$build")/solve" $args --beam-width "$w" --threads 1 --quiet --force \
    --json "$work/count.json" > /dev/null 2> "$work/count.err" \
    || { echo "valgrind failed on $build ($game):" >&2; tail -5 "$work/count.err" >&2; exit 1; }
  python3 - "$work/count.err" "$work/count.json" <<'PY'
import json, re, sys
refs = re.search(r"I\s+refs:\s+([\d,]+)", open(sys.argv[1]).read()).group(1)
j = json.load(open(sys.argv[2]))
print(int(refs.replace(",", "")), j.get("expanded") or j.get("states_expanded") or 0)
PY
}

uptime
echo "old: $ref ($commit); new: this tree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', modified'))"
for game in $games; do
  for ((r = 0; r < rounds; r++)); do
    for build in $builds; do
      run "$game" "$build" "$(bin_of "$build")"
      if ! cmp -s "$work/$game.old.txt" "$work/$game.$build.txt"; then
        echo "$game: the $build build's record differs from the old one's (round $((r + 1)))"
      fi
    done
  done
done
uptime
printf '%-9s %-8s %8s %10s %9s %12s\n' game build cpu_s us/state rss_mib bytes/state
for game in $games; do
  python3 - "$work" "$game" "$(width_of "$game")" $builds <<'PY'
import statistics, sys
work, game, width, builds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
medians = {}
for build in builds:
    rows = [line.split() for line in open(f"{work}/{game}.{build}")]
    cpu = statistics.median(float(r[0]) for r in rows)
    rss = statistics.median(int(r[1]) for r in rows) * 1024
    expanded = int(rows[0][2])
    per_state = cpu * 1e6 / expanded if expanded else float("nan")
    medians[build] = (cpu, rss)
    print(f"{game:<9} {build:<8} {cpu:8.2f} {per_state:10.3f} {rss / 2**20:9.1f} {rss / width:12.0f}")
for suffix, name in (("", "native"), ("-avx2", "AVX2")):
    if "old" + suffix in medians:
        ratios = [o / n for o, n in zip(medians["old" + suffix], medians["new" + suffix])]
        print(f"{game:<9} {name} old/new CPU {ratios[0]:.3f}, peak {ratios[1]:.3f}")
PY
done
[ "$avx2" != 0 ] || exit 0
if ! command -v valgrind > /dev/null; then
  echo "instructions per state: not counted, valgrind is not installed (apt-get install valgrind)"
  exit 0
fi
for game in $games; do
  case $game in contest) w=${COUNT_WIDTH:-1000} ;; olympiad) w=50 ;; esac
  per_state=()
  for build in old-avx2 new-avx2; do
    counted "$game" "$build" "$w" > "$work/small"
    counted "$game" "$build" $((2 * w)) > "$work/large"
    read -r small small_states < "$work/small"
    read -r large large_states < "$work/large"
    per_state+=("$(python3 -c "print(($large - $small) / ($large_states - $small_states))")")
  done
  python3 -c "
o, n = $(IFS=,; echo "${per_state[*]}")
print(f'$game instructions per state (AVX2 builds, valgrind): old {o:,.0f}, new {n:,.0f}, old/new {o / n:.3f}')"
done
