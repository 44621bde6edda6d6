#!/usr/bin/env bash
# Installs the second NES oracle's emulator: FCEUX and Xvfb (Debian's packages; FCEUX is a Qt
# program and runs headless under xvfb-run). Idempotent: nothing is done when both are there.
# Needs root (apt-get) the first time. The ROM comes from the nes-py oracle's virtualenv
# (setup.sh) or NES_ROM.
#   bash tools/nes-oracle/setup-fceux.sh
set -euo pipefail
have_fceux() { command -v fceux >/dev/null 2>&1 || [ -x /usr/games/fceux ]; }
if have_fceux && command -v xvfb-run >/dev/null 2>&1; then
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fceux xvfb >/dev/null
have_fceux && command -v xvfb-run >/dev/null
echo "FCEUX oracle ready: $(command -v fceux || echo /usr/games/fceux), $(command -v xvfb-run)"
