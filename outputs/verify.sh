#!/usr/bin/env bash
# Re-checks every record listed in outputs/README.md: each line of the form
#   - `FILE` (strict|judge|nes): SCORE
# must name a committed file whose `check` score (in that mode; `nes`: `check --game nes`, the
# uncapped score) is exactly SCORE.
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin check
check="${CARGO_TARGET_DIR:-target}/release/check"
listed=0
while read -r file mode score; do
  listed=$((listed + 1))
  if [ "$mode" = nes ]; then
    got=$( ("$check" --game nes "outputs/$file" || true) | sed -n 's/^Score = //p')
  else
    flag=""
    [ "$mode" = judge ] && flag="--judge"
    got=$( ("$check" $flag --json inputs/tencent.txt "outputs/$file" || true) \
      | sed -n 's/.*"score":\([0-9]*\).*/\1/p')
  fi
  if [ "$got" != "$score" ]; then
    echo "outputs/$file ($mode): check scores ${got:-nothing}, outputs/README.md states $score" >&2
    exit 1
  fi
  echo "outputs/$file ($mode): $score as stated"
done < <(sed -n 's/^- `\([^`]*\)` (\(strict\|judge\|nes\)): \([0-9]*\)$/\1 \2 \3/p' outputs/README.md)
for f in outputs/*.txt outputs/nes/*.txt; do
  [ -e "$f" ] || continue
  grep -q "^- \`${f#outputs/}\` (" outputs/README.md || {
    echo "$f is committed but outputs/README.md states no score for it" >&2
    exit 1
  }
done
# A committed FCEUX movie is what `check --fm2` writes for the record of its name.
for movie in outputs/nes/*.fm2.gz; do
  [ -e "$movie" ] || continue
  fresh=$(mktemp)
  "$check" --game nes --fm2 "$fresh" "${movie%.fm2.gz}.txt" > /dev/null
  gunzip -c "$movie" | cmp -s - "$fresh" || {
    echo "$movie is not the movie check --fm2 writes for ${movie%.fm2.gz}.txt" >&2
    rm -f "$fresh"
    exit 1
  }
  rm -f "$fresh"
  echo "$movie: the movie of ${movie%.fm2.gz}.txt"
done
echo "$listed committed record(s) verified"
