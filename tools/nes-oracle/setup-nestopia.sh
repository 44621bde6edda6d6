#!/usr/bin/env bash
# Installs the fourth NES oracle's emulator: Nestopia's libretro core (Debian's
# libretro-nestopia), which tools/nes-oracle/nestopia.py drives. Idempotent: nothing is done
# when the core is there. Needs root (apt-get) the first time. The ROM and numpy come from the
# oracle's virtualenv (setup.sh).
#   bash tools/nes-oracle/setup-nestopia.sh
set -euo pipefail
# The core's path, on any Debian architecture; empty when it is not installed.
core() {
  for f in /usr/lib/*/libretro/nestopia_libretro.so /usr/lib/libretro/nestopia_libretro.so; do
    [ -e "$f" ] && { echo "$f"; return; }
  done
}
have_core() { [ -n "$(core)" ]; }
if have_core; then
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libretro-nestopia >/dev/null
have_core
echo "Nestopia oracle ready: $(core)"
