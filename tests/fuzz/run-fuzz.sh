#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets of tests/fuzz with clang and runs each on a copy of its seed
# corpus (tests/data/fuzz/<target>/) for a fixed number of inputs (RUNS), with SECONDS as a
# bound in case the machine is slow. Fails on any crash, leak, sanitizer report, timeout (30 s
# per input) or input needing more than 2 GiB. A fixed seed and a fixed input count make a run
# the same inputs every time (CI's time does not depend on its load); crashes found once go
# into the seeds as regressions.
#   run-fuzz.sh CLANGXX BUILD_DIR [RUNS] [SECONDS]
set -euo pipefail
clangxx=$1
build=$2
runs=${3:-20000}
seconds=${4:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)

# Unity sources at -O1 with line tables (as OSS-Fuzz builds): the sanitized build of the loaders
# was most of this test's time in CI (docs/reliability.md, "Where CI's time goes"). CMake's batches
# of 8: they join files of several folders, whose helper names scripts/unity_names.py does not
# keep apart (it checks one folder at a time).
cmake -S "$root/tests/fuzz" -B "$build" -DCMAKE_CXX_COMPILER="$clangxx" \
    -DIRF_SOURCE_DIR="$root" -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" >/dev/null
cmake --build "$build" -j "${IRF_FUZZ_JOBS:-2}" >/dev/null

status=0
for target in fuzz_profile_json fuzz_ceilings_yaml fuzz_fake_script fuzz_env fuzz_csv fuzz_import_csv; do
    work=$(mktemp -d)
    seeds="$root/tests/data/fuzz/$target"
    # New inputs go to the scratch corpus; the seeds in the tree are only read.
    if ! (cd "$build" && "./$target" -seed=1 -runs="$runs" -max_total_time="$seconds" \
            -timeout=30 -rss_limit_mb=2048 \
            -max_len=65536 -print_final_stats=1 "$work" "$seeds" >"$work.log" 2>&1); then
        echo "[irf] $target failed; the crashing input is in $build (crash-*):" >&2
        tail -n 40 "$work.log" >&2
        status=1
    else
        echo "$target: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work.log" |
            grep -o '[0-9]*$') inputs (of $runs, at most ${seconds} s), no failure"
    fi
    rm -rf "$work" "$work.log"
done
exit "$status"
