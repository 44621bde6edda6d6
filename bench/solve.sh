#!/usr/bin/env bash
# Full solves of inputs/tencent.txt: wall time, CPU time, peak RSS and score per beam width,
# and 1 vs 2 threads. Usage: bench/solve.sh [beam widths...]   (default: 100 1000 10000)
# Extra solve options can be passed in SOLVE_ARGS, e.g. SOLVE_ARGS="--score-weight 0.02".
# One-thread runs are made for beams up to ONE_THREAD_UP_TO (default 1000), e.g.
# ONE_THREAD_UP_TO=10000 SOLVE_ARGS="--pieces 1500" bench/solve.sh 10000  (speed-up at K=10,000).
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin solve
solve="${CARGO_TARGET_DIR:-target}/release/solve"
widths=("$@")
[ ${#widths[@]} -gt 0 ] || widths=(100 1000 10000)
printf '%-8s %-8s %10s %10s %10s %12s %10s\n' beam threads wall_s cpu_s rss_mib us/state score
for k in "${widths[@]}"; do
  for t in 2 1; do
    # Single-thread runs only where they stay short: they measure the parallel speed-up.
    if [ "$t" = 1 ] && [ "$k" -gt "${ONE_THREAD_UP_TO:-1000}" ]; then continue; fi
    json=$(mktemp)
    /usr/bin/time -f '%e %U %S %M' -o "$json.time" \
      "$solve" inputs/tencent.txt --beam-width "$k" --threads "$t" --quiet \
      --json "$json" ${SOLVE_ARGS:-} > /dev/null
    read -r wall user sys rss_kib < "$json.time"
    python3 - "$json" "$k" "$t" "$wall" "$user" "$sys" "$rss_kib" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
k, t, wall, user, sys_, rss = sys.argv[2:]
cpu = float(user) + float(sys_)
print(f"{k:<8} {t:<8} {float(wall):10.1f} {cpu:10.1f} {int(rss)/1024:10.0f} {cpu*1e6/j['expanded']:12.2f} {j['score']:10}")
PY
    rm -f "$json" "$json.time"
  done
done
