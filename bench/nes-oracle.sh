#!/usr/bin/env bash
# Long NES games on the ROM: every spawn's score, lines, level, next piece and field of each
# record compared with the plain engine's, as the oracle test does for the committed records,
# with the emulator's frames a second. A game to level 255 takes minutes. nes-py stops passing
# the controller to the game about 56,900 frames after power-on (docs/NES.md, "The crash"):
# records part from the ROM there, whatever the engine does.
#   bench/nes-oracle.sh RECORD...
#   e.g. bench/nes-oracle.sh outputs/nes/level19-wait0-rollover.txt
# The records play at once, one emulator each: give at most as many as there are cores.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: bench/nes-oracle.sh RECORD..." >&2; exit 2; }
bash tools/nes-oracle/setup.sh >/dev/null
records=""
for r in "$@"; do records="${records:+$records:}$(realpath "$r")"; done
NES_ORACLE_RECORDS="$records" cargo test --release -q --test it -- --ignored \
  --nocapture nes::oracles::nes_py::long_records_agree_with_the_rom 2>&1 | grep -E -A3 "agree with the ROM|differs|panicked|test result"
