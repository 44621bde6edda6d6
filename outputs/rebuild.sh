#!/usr/bin/env bash
# Rebuilds the committed records of outputs/ that are not one `solve` (outputs/README.md):
#
#   outputs/rebuild.sh judge          > record.txt   # tencent.judge.txt, 1,451,858 (~5 min, 4 GB)
#   outputs/rebuild.sh strict-opening > record.txt   # the strict record's base, 1,449,774 (~4 min)
#   outputs/rebuild.sh strict         > record.txt   # tencent.strict.txt, 1,449,778 (~1 h 50 min, 7 GB)
#
# judge and strict-opening: every version of the records of that mode committed up to BASE
# (second argument, default 954020d) is merged (`merge`: where two records hold the same board
# after the same piece, the better start goes on with the other's end), then the merge's first
# 400 pieces are searched again at beam 1,000,000 with weights/survival-fit.json, keeping the
# merged line (`polish`). A strict record is a judge record with the same score, so the judge
# merge takes both kinds.
# strict: strict-opening, then pieces 401-9,999 searched afresh from its board at the widths of
# a 2,000,000-state run (the policy and weights shipped then: the endgame without the fill plan,
# policies/fill-plan-off.json, and weights that did not weigh buried ready rows,
# weights/buried-ready-off.json), then that run merged with its base.
#
# Needs the git history (not a shallow clone). Set REBUILD_DIR=DIR to keep the intermediate
# records there (merged.txt, opening.txt, wide.txt); otherwise a temporary folder is removed.
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: outputs/rebuild.sh judge|strict-opening|strict [BASE] > record.txt"
mode=${1:?$usage}
base=${2:-954020d}
case $mode in
  judge) files="tencent.judge.txt tencent.strict.txt tencent.strict-15min.txt"; flag="--judge" ;;
  strict | strict-opening) files="tencent.strict.txt tencent.strict-15min.txt"; flag="" ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
cargo build --release --quiet --bin merge --bin polish --bin solve
bin="${CARGO_TARGET_DIR:-target}/release"
if [ -n "${REBUILD_DIR:-}" ]; then
  work=$REBUILD_DIR
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# The opening: the records in git history merged, their first 400 pieces polished.
records=()
for f in $files; do
  for c in $(git log --format=%h "$base" -- "outputs/$f"); do
    # Skip the commits that deleted or renamed the file.
    if git show "$c:outputs/$f" > "$work/$c.$f" 2>/dev/null; then
      records+=("$work/$c.$f")
    fi
  done
done
echo "merging ${#records[@]} records" >&2
"$bin/merge" $flag --quiet inputs/tencent.txt "${records[@]}" > "$work/merged.txt"
"$bin/polish" $flag --quiet inputs/tencent.txt "$work/merged.txt" --to 400 \
  --beam-width 1000000 --weights weights/survival-fit.json > "$work/opening.txt"
if [ "$mode" != strict ]; then
  cat "$work/opening.txt"
  exit 0
fi

# strict: the rest of the game searched again from the opening's board after piece 400, at the
# widths a 105-minute time budget chose (depths count from piece 401), then merged with it.
echo "searching pieces 401-9,999 at about 1,300,000 states (about 1 h 45 min, 6.6 GB)" >&2
"$bin/solve" --quiet inputs/tencent.txt --from-record "$work/opening.txt" --from-piece 400 \
  --beam-width 2000000 --weights weights/buried-ready-off.json --policy policies/fill-plan-off.json \
  --width-changes 50:1042740,300:1295081,550:1339786,800:1410423,1050:1352851,1550:1380045,2050:1349894,3050:1400527,3300:1327724,4300:1243082,4550:1344684,4800:1293134,5050:1334272,5800:1409497,6300:1347794,7050:1383356,7300:1339783,7550:1423644,8050:1335603,8300:1292142,8550:1356913,8800:1324051,9050:1381342,9550:705108 \
  > "$work/wide.txt"
"$bin/merge" --quiet inputs/tencent.txt "$work/opening.txt" "$work/wide.txt"
