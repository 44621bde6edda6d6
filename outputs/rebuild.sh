#!/usr/bin/env bash
# Rebuilds a record of outputs/ from the records committed before it (outputs/README.md):
#   outputs/rebuild.sh strict|judge [BASE] > record.txt
# 1. every version of the records of that mode committed up to BASE (default 954020d, the
#    commit of the 1,449,592 strict and 1,451,754 judge records) is merged (`merge`): where two
#    of them hold the same board after the same piece, the better start goes on with the other's
#    end;
# 2. the first 400 pieces of the merge are searched again with the session-10 weights at beam
#    1,000,000, keeping the merged line (`polish`).
# Needs the git history (not a shallow clone); about 5 minutes and 4 GB on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: outputs/rebuild.sh strict|judge [BASE]}
base=${2:-954020d}
case $mode in
  strict) files="tencent.strict.txt tencent.strict-15min.txt"; flag="" ;;
  # A strict record is also a judge record with the same score; both kinds go in.
  judge) files="tencent.judge.txt tencent.strict.txt tencent.strict-15min.txt"; flag="--judge" ;;
  *) echo "usage: outputs/rebuild.sh strict|judge [BASE]" >&2; exit 2 ;;
esac
cargo build --release --quiet --bin merge --bin polish
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
records=()
for f in $files; do
  for c in $(git log --format=%h "$base" -- "outputs/$f"); do
    # Skip the commits that deleted or renamed the file.
    if git show "$c:outputs/$f" > "$tmp/$c.$f" 2>/dev/null; then
      records+=("$tmp/$c.$f")
    fi
  done
done
echo "merging ${#records[@]} records" >&2
./target/release/merge $flag --quiet inputs/tencent.txt "${records[@]}" > "$tmp/merged.txt"
./target/release/polish $flag --quiet inputs/tencent.txt "$tmp/merged.txt" --to 400 \
  --beam-width 1000000 --weights weights/survival-fit.json
