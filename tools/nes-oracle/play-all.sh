#!/usr/bin/env bash
# Plays a NES record on every oracle that keeps a long game in step with the controller
# (Nestopia, FCEUX, TetaNES) and holds each to the engine's game, spawn by spawn and screen by
# screen, with compare.py. nes-py is left out: from about frame 57,000 its steps stop reading
# the controller once each (README.md), so a long game parts from it there.
#   bash tools/nes-oracle/play-all.sh RECORD [OUT_DIR]     (default: target/oracle-runs/NAME)
# Needs setup.sh, setup-fceux.sh and setup-nestopia.sh, and `check` ($CHECK, or
# target/release/check). Each oracle's JSON lines are kept in OUT_DIR; the comparison is
# printed, and the exit status is compare.py's (1 when an oracle parts from the engine).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
record="${1:?usage: play-all.sh RECORD [OUT_DIR]}"
out="${2:-$root/target/oracle-runs/$(basename "$record" .txt)}"
py="${NES_ORACLE_PYTHON:-$root/target/nes-oracle-venv/bin/python}"
mkdir -p "$out"
for emulator in nestopia tetanes; do
  start=$(date +%s)
  "$py" "$here/oracle.py" play --emulator "$emulator" "$record" > "$out/$emulator.jsonl"
  echo "$emulator: $(($(date +%s) - start)) s" >&2
done
start=$(date +%s)
python3 "$here/oracle.py" play --emulator fceux "$record" > "$out/fceux.jsonl"
echo "fceux: $(($(date +%s) - start)) s" >&2
python3 "$here/compare.py" "$record" nestopia="$out/nestopia.jsonl" fceux="$out/fceux.jsonl" \
  tetanes="$out/tetanes.jsonl"
