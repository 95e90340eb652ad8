#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gpu-validate.sh: everything the GPU session runs on the device, in one call, from a tree that is
# already built (nothing is compiled here). Collects into OUT_DIR:
#   env/       nvidia-smi, driver/toolkit/ncu versions, profiling permission, ldd of libirf.so
#   ctest-gpu.log, ctest-gpu.xml   `ctest -L gpu` (a missing device, refused counters or a low
#                                  compute capability fail instead of skipping; any test that
#                                  still reports skipped fails this step)
#   hazards/<case>.{json,log}      each hazard app of tests/gpu/hazards.json under libirf.so
#                                  (run by ctest's test_gpu_hazards, which copies them here)
#   irf/<case>.json|.txt           each known-answer case under libirf.so
#   ncu/<case>.csv                 the same case under `ncu --metrics <same counters> --csv`
#   logs/<case>.{irf,ncu}.log      the apps' own output
#   compare.md, compare.json       irf vs ncu per counter (tests/gpu/compare_ncu.py)
#   sass/<app>.sass                cuobjdump -sass of each app, when cuobjdump exists
#   demo/                          the README quick start: irf-demo under libirf.so
#   calibrate.yaml                 irf-calibrate output (only with --calibrate)
#   summary.txt                    one line per step with its status
# usage: scripts/gpu-validate.sh BUILD_DIR OUT_DIR [--no-ctest] [--no-ncu] [--calibrate]
#        [--only REGEX]   case ids of tests/gpu/expected.json to run (default all)
#        [--pack DIR]     also copy summary.txt, compare.md and OUT_DIR as one .tar.gz to DIR
#                         (the device tool returns at most 8 files from $OUT)
#        [--deadline S]   skip or stop steps after S seconds (default 540: a device call is
#                         at most 600 s, and the packing must still happen)
#        scripts/gpu-validate.sh --skipped-in CTEST_LOG
#                         lists the tests a ctest log reports as skipped; exit 1 if any
#        scripts/gpu-validate.sh --collect-libs BUILD_DIR
#                         copies the shared libraries the build needs beyond glibc, libstdc++
#                         and CUDA (yaml-cpp, libunwind, ...) into BUILD_DIR/_libs, for a
#                         machine without those packages; runs use BUILD_DIR/_libs if present.
# Exit status: 0 when every step that ran succeeded, 1 otherwise, 2 on bad usage.
set -u

usage() {
    sed -n '3,31p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

collect_libs() { # the non-system libraries that the build's ELF files link
    local build=$1 dest=$1/_libs
    mkdir -p "$dest"
    find "$build" -path "$dest" -prune -o -type f -perm -u+x -print -o -name '*.so' -print |
        while read -r f; do ldd "$f" 2>/dev/null; done |
        awk '$2=="=>" && $3 ~ /^\// {print $3}' | sort -u |
        grep -E 'lib(yaml-cpp|unwind|lzma|gtest|gmock|benchmark|fmt|CLI11)[^/]*$' |
        while read -r lib; do cp -L "$lib" "$dest/"; done
    ls "$dest"
}

skipped_in() { # the tests a ctest log reports as skipped (or not run); exit 1 when any
    local found
    found=$(grep -E '\*\*\*Skipped|\*\*\*Not Run|Skipped +[0-9.]+ sec' "$1" | grep -v '^$')
    [ -z "$found" ] && return 0
    echo "$found"
    return 1
}

if [ "${1:-}" = --skipped-in ]; then
    [ $# -eq 2 ] || usage
    skipped_in "$2"
    exit $?
fi
if [ "${1:-}" = --collect-libs ]; then
    [ $# -eq 2 ] || usage
    collect_libs "$2"
    exit $?
fi
[ $# -ge 2 ] || usage
build=$(cd "$1" 2>/dev/null && pwd) || { echo "gpu-validate: no build dir $1"; exit 2; }
out=$2
shift 2
run_ctest=1 run_ncu=1 run_calibrate=0 only=. pack="" deadline=540
while [ $# -gt 0 ]; do
    case $1 in
    --no-ctest) run_ctest=0 ;;
    --no-ncu) run_ncu=0 ;;
    --calibrate) run_calibrate=1 ;;
    --only) only=${2:?--only needs a regex}; shift ;;
    --pack) pack=${2:?--pack needs a directory}; shift ;;
    --deadline) deadline=${2:?--deadline needs seconds}; shift ;;
    *) usage ;;
    esac
    shift
done

src=$(cd "$(dirname "$0")/.." && pwd)
if [ -d "$build/_libs" ]; then
    export LD_LIBRARY_PATH="$build/_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
mkdir -p "$out"/{env,irf,ncu,logs,sass,demo,hazards}
out=$(cd "$out" && pwd)
status=0
note() { echo "[gpu-validate] $*" | tee -a "$out/summary.txt"; }
started=$(date +%s)
step() { # step NAME LOG CMD...: runs CMD with its output in LOG, records ok/FAILED in summary;
    # skipped once the deadline has passed, and stopped at it (so --pack still runs in time)
    local name=$1 log=$2 rc=0 left
    shift 2
    left=$((deadline - ($(date +%s) - started)))
    if [ $left -le 0 ]; then
        note "SKIPPED $name (deadline of ${deadline}s reached)"
        status=1
        return
    fi
    timeout "$left" "$@" >"$log" 2>&1 || rc=$?
    if [ $rc = 0 ]; then note "ok      $name"; else note "FAILED  $name (exit $rc)"; status=1; fi
}

# --- where things are -----------------------------------------------------------------------
libirf=$(find "$build" -name libirf.so -type f 2>/dev/null | head -n 1)
apps=$build/tests/gpu/apps # irf-demo and the known-answer and hazard apps
demo=$apps/irf-demo
[ -x "$demo" ] || demo=""
ncu=$(command -v ncu || find /usr/local/cuda/bin /opt/nvidia/nsight-compute \
    /usr/local/cuda/nsight-compute-* -name ncu -type f 2>/dev/null | head -n 1)
metrics=$(grep -v '^#' "$src/tests/gpu/ncu_metrics_gh100.txt" | awk 'NF==2{print $2}' |
    paste -sd, -)
note "build=$build libirf=${libirf:-MISSING} demo=${demo:-MISSING} ncu=${ncu:-MISSING}"
[ -n "$libirf" ] || { note "FAILED  libirf.so not found under $build"; status=1; }

# --- environment ----------------------------------------------------------------------------
{
    date -u
    uname -a
    nvidia-smi || echo "nvidia-smi failed"
    nvidia-smi --query-gpu=name,pci.bus_id,driver_version,clocks.max.sm,clocks.sm,memory.total \
        --format=csv
    grep -H RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null
    echo "uid=$(id -u)"
    command -v nvcc && nvcc --version
    [ -n "$ncu" ] && "$ncu" --version
    command -v cuobjdump
} >"$out/env/environment.txt" 2>&1
nvidia-smi -q >"$out/env/nvidia-smi-q.txt" 2>&1
[ -n "$libirf" ] && ldd "$libirf" >"$out/env/ldd-libirf.txt" 2>&1
if grep -q "not found" "$out/env/ldd-libirf.txt" 2>/dev/null; then
    note "WARNING libirf.so has unresolved libraries (see env/ldd-libirf.txt): carry them"
fi

# --- ctest -L gpu ---------------------------------------------------------------------------
if [ $run_ctest = 1 ]; then
    step "ctest -L gpu" "$out/ctest-gpu.log" env IRF_GPU_TESTS_REQUIRE=1 \
        IRF_GPU_HAZARD_OUT="$out/hazards" ctest --test-dir "$build" -L gpu \
        --output-on-failure --timeout 300 --output-junit "$out/ctest-gpu.xml"
    grep -E "tests passed|tests failed" "$out/ctest-gpu.log" | tee -a "$out/summary.txt"
    # ctest counts a skipped test as passed: with a device required, a skip is a failure.
    if ! skipped_in "$out/ctest-gpu.log" >"$out/logs/skipped.txt"; then
        note "FAILED  gpu tests skipped (see logs/skipped.txt): $(wc -l <"$out/logs/skipped.txt")"
        status=1
    fi
fi

# --- each case under irf and under ncu --------------------------------------------------------
cases=$(python3 - "$src/tests/gpu/expected.json" "$only" <<'PY'
import json, re, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    if re.search(sys.argv[2], c["id"]):
        env = [f"{k}={v}" for k, v in c.get("env", {}).items()] or ["IRF_CASE=" + c["id"]]
        print(c["id"], ",".join(env), c["app"], *c["args"])
PY
)
while read -r id case_env app args; do
    [ -n "$id" ] || continue
    bin=$apps/$app
    # shellcheck disable=SC2086 # args and the case's env (IRF_METRICS=...) are word lists
    step "irf $id" "$out/logs/$id.irf.log" env ${case_env//,/ } CUDA_INJECTION64_PATH="$libirf" \
        IRF_OUTPUT="$out/irf/$id" IRF_SUMMARY=file IRF_LOG=info "$bin" $args
    if [ $run_ncu = 1 ] && [ -n "$ncu" ]; then
        # Same conditions as irf: no cache flush, no clock locking, every launch profiled.
        # shellcheck disable=SC2086
        step "ncu $id" "$out/logs/$id.ncu.log" "$ncu" --csv --print-units base \
            --print-kernel-base demangled --cache-control none --clock-control none \
            --metrics "$metrics" --log-file "$out/ncu/$id.csv" "$bin" $args
    fi
done <<<"$cases"
if [ $run_ncu = 1 ] && [ -n "$ncu" ]; then
    step "compare irf vs ncu" "$out/logs/compare.log" python3 "$src/tests/gpu/compare_ncu.py" \
        --irf "$out/irf" --ncu "$out/ncu" --only "$only" --out "$out/compare.md" \
        --json "$out/compare.json"
    tail -n 1 "$out/compare.md" 2>/dev/null | tee -a "$out/summary.txt"
elif [ $run_ncu = 1 ]; then
    note "SKIPPED ncu: not installed on this machine"
fi

# --- SASS of each app (to explain a count that differs from expected.json) ------------------------
if command -v cuobjdump >/dev/null; then
    for bin in "$apps"/irf-ka-* ${demo:+"$demo"}; do
        [ -x "$bin" ] && cuobjdump -sass "$bin" >"$out/sass/$(basename "$bin").sass" 2>&1
    done
fi

# --- the README quick start, and calibration ------------------------------------------------
if [ -n "$demo" ] && [ -n "$libirf" ]; then
    step "irf-demo under libirf.so" "$out/demo/output.txt" env CUDA_INJECTION64_PATH="$libirf" \
        IRF_OUTPUT="$out/demo/irf-demo" IRF_SUMMARY=both "$demo"
fi
if [ $run_calibrate = 1 ]; then
    calibrate=$(find "$build" -name irf-calibrate -type f -perm -u+x | head -n 1)
    if [ -n "$calibrate" ]; then
        step "irf-calibrate" "$out/logs/calibrate.log" "$calibrate" \
            -o "$out/calibrate.yaml"
    else
        note "SKIPPED irf-calibrate: not built"
    fi
fi
note "done: status $status, results in $out"
if [ -n "$pack" ]; then
    mkdir -p "$pack"
    cp "$out/summary.txt" "$pack/"
    [ -f "$out/compare.md" ] && cp "$out/compare.md" "$pack/"
    tar czf "$pack/gpu-validate.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
fi
exit $status
