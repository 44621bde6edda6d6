#!/bin/sh
# The long fuzz run: FUZZ_CASES library cases per game (default 1,000,000) through the readers
# and replays `check` uses, printing per game the inputs tried, panics and wrong forms.
#   bench/fuzz.sh                 every game, 1,000,000 cases each
#   bench/fuzz.sh nes 200000      one game (contest, nes, browser or olympiad), 200,000 cases
# The olympiad's run also plays FUZZ_CASES / 10 games of random placements on its two engines.
# The games run one after another (--test-threads=1); THREADS=3 runs them side by side.
set -eu
cd "$(dirname "$0")/.."
games=${1:-}
export FUZZ_CASES="${2:-${FUZZ_CASES:-1000000}}"
exec cargo test --release --test it -- --ignored --nocapture \
    --test-threads="${THREADS:-1}" "fuzz::long_${games}"
