#!/usr/bin/env bash
# Plays a NES record on every oracle that keeps a long game in step with the controller
# (Nestopia, FCEUX, TetaNES) and holds each to the engine's game, spawn by spawn and screen by
# screen, with compare.py. nes-py is left out: from about frame 57,000 its steps stop reading
# the controller once each (README.md), so a long game parts from it there.
#   bash tools/nes-oracle/play-all.sh RECORD [OUT_DIR]     (default: target/oracle-runs/NAME)
# Needs setup.sh, setup-fceux.sh and setup-nestopia.sh, and `check` ($CHECK, or
# target/release/check). Each oracle's JSON lines are kept in OUT_DIR; the comparison is
# printed, and the exit status is compare.py's (1 when an oracle parts from the engine).
# ORACLES="nestopia fceux" plays on those alone (TetaNES takes about four times as long).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
record="${1:?usage: play-all.sh RECORD [OUT_DIR]}"
out="${2:-$root/target/oracle-runs/$(basename "$record" .txt)}"
py="${NES_ORACLE_PYTHON:-$root/target/nes-oracle-venv/bin/python}"
oracles="${ORACLES:-nestopia tetanes fceux}"
mkdir -p "$out"
played=()
for emulator in $oracles; do
  case "$emulator" in
    nestopia | tetanes) python="$py" ;;
    fceux) python=python3 ;;
    *) echo "play-all.sh: unknown oracle $emulator (nestopia, tetanes, fceux)" >&2; exit 2 ;;
  esac
  start=$(date +%s)
  "$python" "$here/oracle.py" play --emulator "$emulator" "$record" > "$out/$emulator.jsonl"
  echo "$emulator: $(($(date +%s) - start)) s" >&2
  played+=("$emulator=$out/$emulator.jsonl")
done
python3 "$here/compare.py" "$record" "${played[@]}"
