#!/usr/bin/env bash
# Peak memory per beam state: solves the first PIECES pieces of inputs/tencent.txt at each beam
# width K and prints peak RSS, bytes per state, the estimate `solve` prints before a search,
# wall and CPU time, CPU per expanded state, and the score.
# Usage: bench/memory.sh [K...]   (default: 20000 100000 1000000; PIECES=1000 by default)
# Extra solve options can be passed in SOLVE_ARGS (e.g. SOLVE_ARGS="--threads 1").
# Honours CARGO_TARGET_DIR; SOLVE=path times another solve binary (e.g. an older build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SOLVE:-}" ]; then
  cargo build --release --quiet --bin solve
  SOLVE="${CARGO_TARGET_DIR:-target}/release/solve"
fi
pieces="${PIECES:-1000}"
widths=("$@")
[ ${#widths[@]} -gt 0 ] || widths=(20000 100000 1000000)
printf '%-9s %7s %10s %11s %13s %9s %9s %9s %9s\n' \
  beam pieces rss_mib bytes/state estimate_mib wall_s cpu_s us/state score
for k in "${widths[@]}"; do
  json=$(mktemp)
  /usr/bin/time -f '%e %U %S %M' -o "$json.time" \
    "$SOLVE" inputs/tencent.txt --beam-width "$k" --pieces "$pieces" --quiet --force \
    --json "$json" ${SOLVE_ARGS:-} > /dev/null
  read -r wall user sys rss_kib < "$json.time"
  python3 - "$json" "$k" "$pieces" "$wall" "$user" "$sys" "$rss_kib" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
k, pieces, wall, user, sys_, rss = sys.argv[2:]
cpu = float(user) + float(sys_)
rss_bytes = int(rss) * 1024
estimate = j.get("expected_peak_memory_mib")
estimate = f"{estimate:13.0f}" if estimate is not None else f"{'-':>13}"
print(f"{k:<9} {pieces:>7} {rss_bytes / 2**20:10.0f} {rss_bytes / int(k):11.0f} {estimate} "
      f"{float(wall):9.1f} {cpu:9.1f} {cpu * 1e6 / j['expanded']:9.3f} {j['score']:9}")
PY
  rm -f "$json" "$json.time"
done
