#!/usr/bin/env bash
# Benchmark (j): the olympiad's game (`--game olympiad`, objective survive) on generated
# sequences (`gen --game olympiad --seed S`). Prints, per sequence: pieces placed, seconds,
# peak memory, and whether `check` scores the record as `solve` claimed; then the smallest
# width that survives every sequence; then one long game of LONG pieces at width 50 against
# the first sequence's peak memory.
# Usage: bash bench/olympiad.sh [PIECES [LONG [SEEDS...]]]
#   (default: 100000 pieces, a long game of 1000000, seeds 1-10)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bins
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pieces=${1:-100000}
long=${2:-1000000}
shift $(( $# > 2 ? 2 : $# ))
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5 6 7 8 9 10)

# One solve: prints "placed seconds peakMiB agreed" for SEQ at WIDTH.
solve() {
  local seq=$1 width=$2
  /usr/bin/time -f '%e %M' -o "$work/time" \
    target/release/solve --game olympiad "$seq" --beam-width "$width" --quiet \
    --json "$work/solve.json" > "$work/moves.txt"
  target/release/check --game olympiad "$seq" "$work/moves.txt" --json > "$work/check.json"
  python3 - "$work/time" "$work/solve.json" "$work/check.json" <<'PY'
import json, sys
seconds, kib = open(sys.argv[1]).read().split()
solved = json.load(open(sys.argv[2]))["score"]
checked = json.load(open(sys.argv[3]))
agreed = "yes" if checked["valid"] and checked["score"] == solved else "NO"
print(checked["score"], float(seconds), f"{int(kib) / 1024:.1f}", agreed)
PY
}

uptime
echo "width 50, $pieces pieces"
printf '%-5s %-8s %-8s %-8s %s\n' seed placed seconds peakMiB checked
for seed in "${seeds[@]}"; do
  target/release/gen --game olympiad --seed "$seed" --count "$pieces" > "$work/seq$seed.txt"
  read -r placed seconds mib agreed < <(solve "$work/seq$seed.txt" 50)
  printf '%-5s %-8s %-8s %-8s %s\n' "$seed" "$placed" "$seconds" "$mib" "$agreed"
  [ "$seed" = "${seeds[0]}" ] && first_mib=$mib
done

echo "smallest width that survives every sequence"
for width in 1 2 3 4 6 8 12 16 24 32 50; do
  all=yes
  for seed in "${seeds[@]}"; do
    read -r placed _ _ agreed < <(solve "$work/seq$seed.txt" "$width")
    if [ "$placed" != "$pieces" ] || [ "$agreed" != yes ]; then
      all="no (seed $seed: $placed placed, checked $agreed)"
      break
    fi
  done
  echo "width $width: $all"
  [ "$all" = yes ] && break
done

echo "width 50, $long pieces, seed ${seeds[0]}"
target/release/gen --game olympiad --seed "${seeds[0]}" --count "$long" > "$work/long.txt"
read -r placed seconds mib agreed < <(solve "$work/long.txt" 50)
echo "placed $placed, $seconds s, peak $mib MiB (the $pieces-piece game: $first_mib MiB), checked $agreed"
uptime
