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
#   torch/                         the PyTorch step (tests/gpu/torch/train_step.py) without irf,
#                                  under `irf run` and under `irf run --samples 0` (only with
#                                  --torch), rounds interleaved; its profiles and logs
#   contention/                    ncu of another app beside a running, idle irf (--contention)
#   calibrate-quick.yaml, calibrate.yaml   irf-calibrate --quick, then the full run (--calibrate)
#   summary.txt                    one line per step with its status and seconds
# usage: scripts/gpu-validate.sh BUILD_DIR OUT_DIR [--no-ctest] [--no-ncu] [--calibrate]
#        [--only REGEX]   case ids of tests/gpu/expected.json to run (default all)
#        [--ncu-only REGEX] of those, the cases also run under ncu (default all)
#        [--torch N]      N interleaved rounds of the PyTorch step (baseline, irf, timing only)
#        [--torch-compile] also the step under torch.compile(mode="reduce-overhead") (80 s)
#        [--contention]   ncu profiles an app while irf-hz-loop runs under irf, idle
#        [--refused]      irf samples an app while ncu profiles irf-hz-loop (counters held
#                         elsewhere): irf's one line and a timing-only profile (refused/)
#        [--refused-long S] irf-hz-loop under irf for S s while ncu holds the counters for its
#                         first 8 s: irf samples again once they are free (refused-long/)
#        [--entry]        irf-entry-probe with libirf_entry.so preloaded and without, and
#                         irf-demo profiled with IRF_FAST_INTERCEPT=1 and without (entry/)
#        [--sigterm-loop S] irf-hz-loop under irf, SIGTERM after S s: dies of it, profile written
#        [--timing-only]  the known-answer cases run with IRF_SAMPLES=0 (durations only: a GPU
#                         whose counters are not read, e.g. the projection's H200 side)
#        [--projection]   tests/gpu/torch/projection_kernels.py (streams, GEMMs) without irf and
#                         under `irf run` (with --timing-only: `--samples 0`) into projection/
#        [--overhead N]   N interleaved rounds of the PyTorch step without irf, under `irf run`,
#                         `irf run --samples 0`, and --samples 0 with IRF_TIMING=sampled and
#                         IRF_GRAPH_TIMING=graphs:3 (overhead/; GPU and launching-thread CPU)
#        [--operators N]  the KernelBench level-1 operators, N calls each, without irf and
#                         under `irf run`, then check-projection onto each published GPU
#        [--graph-long N] the step, its graph replays and N tiny launches, timing only
#        [--kit DIR]      the CUPTI cost kit built into DIR (DIR/run_quick.sh)
#        [--hazards REGEX] the hazard cases (tests/gpu/hazards.json ids) under libirf.so
#                         with IRF_LOG=debug, logs and profiles in hazards/ (unless ctest ran)
#        [--replay REGEX] the known-answer apps of those cases, 16 launches a kernel, under
#                         IRF_REPLAY=kernel and =launches; counters against the known answers
#                         and each other (replay/; these five: scripts/gpu-validate-steps.sh)
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
    sed -n '3,59p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

collect_libs() { # the non-system libraries that the build's ELF files link
    local build=$1 dest=$1/_libs
    mkdir -p "$dest"
    find "$build" -path "$dest" -prune -o -type f -perm -u+x -print -o -name '*.so' -print |
        while read -r f; do ldd "$f" 2>/dev/null; done |
        awk '$2=="=>" && $3 ~ /^\// {print $3}' | sort -u |
        grep -E 'lib(yaml-cpp|re2|unwind|lzma|gtest|gmock|benchmark|fmt|CLI11)[^/]*$' |
        while read -r lib; do cp -L "$lib" "$dest/"; done
    # CUPTI of the toolkit built against, used only where the device's toolkit has none
    mkdir -p "$dest/fallback"
    find "$build" -name libirf.so -type f -exec ldd {} \; |
        awk '$1 ~ /^libcupti/ && $3 ~ /^\// {print $3}' | xargs -r -I{} cp -L {} "$dest/fallback/"
    ls -R "$dest"
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
run_ctest=1 run_ncu=1 run_calibrate=0 only=. ncu_only=. pack="" deadline=540 torch_rounds=0
run_contention=0 torch_compile=0 timing_only=0 overhead_rounds=0 run_projection=0 run_refused=0
operator_calls=0 graph_long=0 kit_dir="" hazard_ids="" replay_ids="" run_entry=0 refused_long=0 sigterm_loop=0
while [ $# -gt 0 ]; do
    case $1 in
    --no-ctest) run_ctest=0 ;;
    --no-ncu) run_ncu=0 ;;
    --calibrate) run_calibrate=1 ;;
    --only) only=${2:?--only needs a regex}; shift ;;
    --ncu-only) ncu_only=${2:?--ncu-only needs a regex}; shift ;;
    --torch) torch_rounds=${2:?--torch needs a number of rounds}; shift ;;
    --contention) run_contention=1 ;;
    --torch-compile) torch_compile=1 ;;
    --timing-only) timing_only=1 ;;
    --projection) run_projection=1 ;;
    --refused) run_refused=1 ;;
    --refused-long) refused_long=${2:?--refused-long needs seconds}; shift ;;
    --entry) run_entry=1 ;;
    --sigterm-loop) sigterm_loop=${2:?--sigterm-loop needs seconds}; shift ;;
    --overhead) overhead_rounds=${2:?--overhead needs a number of rounds}; shift ;;
    --operators) operator_calls=${2:?--operators needs a number of calls}; shift ;;
    --graph-long) graph_long=${2:?--graph-long needs a number of launches}; shift ;;
    --kit) kit_dir=${2:?--kit needs a directory}; shift ;;
    --hazards) hazard_ids=${2:?--hazards needs a regex}; shift ;;
    --replay) replay_ids=${2:?--replay needs a regex}; shift ;;
    --pack) pack=${2:?--pack needs a directory}; shift ;;
    --deadline) deadline=${2:?--deadline needs seconds}; shift ;;
    *) usage ;;
    esac
    shift
done

src=$(cd "$(dirname "$0")/.." && pwd)
if [ -d "$build/_libs" ]; then # the device's CUDA libraries before the carried fallback
    cuda_dirs=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib
    export LD_LIBRARY_PATH="$build/_libs:$cuda_dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$build/_libs/fallback"
fi
mkdir -p "$out"/{env,irf,ncu,logs,sass,demo,hazards,torch,contention,overhead,projection,refused}
out=$(cd "$out" && pwd)
status=0
note() { echo "[gpu-validate] $*" | tee -a "$out/summary.txt"; }
started=$(date +%s)
step() { # step NAME LOG CMD...: runs CMD with its output in LOG, records ok/FAILED in summary;
    # skipped once the deadline has passed, and stopped at it (so --pack still runs in time)
    local name=$1 log=$2 rc=0 left t0 took
    shift 2
    left=$((deadline - ($(date +%s) - started)))
    if [ $left -le 0 ]; then
        note "SKIPPED $name (deadline of ${deadline}s reached)"
        status=1
        return
    fi
    t0=$(date +%s.%N)
    timeout "$left" "$@" >"$log" 2>&1 || rc=$?
    took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    if [ $rc = 0 ]; then
        note "ok      $name (${took}s)"
    else
        note "FAILED  $name (exit $rc, ${took}s)"
        status=1
    fi
}

# --- where things are -----------------------------------------------------------------------
libirf=$(find "$build" -name libirf.so -type f 2>/dev/null | head -n 1)
apps=$build/tests/gpu/apps # irf-demo and the known-answer and hazard apps
demo=$apps/irf-demo
[ -x "$demo" ] || demo=""
ncu=$(command -v ncu || find /usr/local/cuda/bin /opt/nvidia/nsight-compute \
    /usr/local/cuda/nsight-compute-* -name ncu -type f 2>/dev/null | head -n 1)
# ncu collects the comparison file's metrics, irf's whole default set (`irf-report metrics
# --ncu`, so that every counter irf reads has ncu's value beside it) and the ones the open
# questions of docs/validation/README.md need (L2 from all units, LSU/ALU pipe shares, the
# ld/st counts without _pred_on_any, SOL throughputs for the bound).
report=$(find "$build" -path '*/tools/irf-report' -type f -perm -u+x 2>/dev/null | head -n 1)
irf_set=$([ -n "$report" ] && "$report" metrics --ncu 2>/dev/null |
    awk '/^ncu /{for (i = 1; i < NF; i++) if ($i == "--metrics") {print $(i + 1); exit}}')
questions=lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,\
sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,\
sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,\
sm__throughput.avg.pct_of_peak_sustained_elapsed,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__ops_path_tensor_src_fp16.sum,\
sm__cycles_active.avg
metrics=$({ grep -v '^#' "$src/tests/gpu/ncu_metrics_gh100.txt" | awk 'NF==2{print $2}'
    echo "${irf_set}" | tr , '\n'; echo "$questions" | tr , '\n'; } | grep -v '^$' | sort -u |
    paste -sd, -)
note "build=$build libirf=${libirf:-MISSING} demo=${demo:-MISSING} ncu=${ncu:-MISSING}"
[ -n "$libirf" ] || { note "FAILED  libirf.so not found under $build"; status=1; }
echo "$metrics" | tr , '\n' >"$out/env/ncu-metrics.txt"

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

# --- SASS of each app (CPU only: runs beside the GPU steps) -------------------------------------
if command -v cuobjdump >/dev/null; then
    for bin in "$apps"/irf-ka-* ${demo:+"$demo"}; do
        [ -x "$bin" ] && cuobjdump -sass "$bin" >"$out/sass/$(basename "$bin").sass" 2>&1
    done &
    sass_pid=$!
fi

# --- the README quick start first: the smallest proof that injection works -------------------
irfcli=$(find "$build" -path '*/tools/irf' -type f -perm -u+x | head -n 1)
if [ -n "$demo" ] && [ -n "$libirf" ]; then
    step "irf-demo under libirf.so" "$out/demo/output.txt" env CUDA_INJECTION64_PATH="$libirf" \
        IRF_OUTPUT="$out/demo/irf-demo" IRF_SUMMARY=both IRF_LOG=debug timeout 60 "$demo"
fi

# --- ctest -L gpu (each run's profile kept in irf/ and hazards/) ------------------------------
if [ $run_ctest = 1 ]; then
    step "ctest -L gpu" "$out/ctest-gpu.log" env IRF_GPU_TESTS_REQUIRE=1 IRF_GPU_LOG=debug \
        IRF_GPU_HAZARD_OUT="$out/hazards" IRF_GPU_PROFILE_OUT="$out/irf" \
        ctest --test-dir "$build" -L gpu --output-on-failure --timeout 60 \
        --output-junit "$out/ctest-gpu.xml"
    grep -E "tests passed|tests failed" "$out/ctest-gpu.log" | tee -a "$out/summary.txt"
    # ctest counts a skipped test as passed: with a device required, a skip is a failure.
    if ! skipped_in "$out/ctest-gpu.log" >"$out/logs/skipped.txt"; then
        note "FAILED  gpu tests skipped (see logs/skipped.txt): $(wc -l <"$out/logs/skipped.txt")"
        status=1
    fi
fi

# --- each case under irf (unless ctest kept its profile) and under ncu --------------------------
cases=$(python3 - "$src/tests/gpu/expected.json" "$only" "$timing_only" <<'PY'
import json, re, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    if re.search(sys.argv[2], c["id"]):
        env = [f"{k}={v}" for k, v in c.get("env", {}).items()] or ["IRF_CASE=" + c["id"]]
        if sys.argv[3] == "1":
            env.append("IRF_SAMPLES=0")
        print(c["id"], ",".join(env), c["app"], *c["args"])
PY
)
while read -r id case_env app args; do
    [ -n "$id" ] && [ ! -f "$out/irf/$id.json" ] || continue
    # shellcheck disable=SC2086 # args and the case's env (IRF_METRICS=...) are word lists
    step "irf $id" "$out/logs/$id.irf.log" env ${case_env//,/ } CUDA_INJECTION64_PATH="$libirf" \
        IRF_OUTPUT="$out/irf/$id" IRF_SUMMARY=file IRF_LOG=info "$apps/$app" $args
done <<<"$cases"
if [ $run_ncu = 1 ] && [ -n "$ncu" ]; then
    while read -r id case_env app args; do
        [ -n "$id" ] && [[ $id =~ $ncu_only ]] || continue
        # Same conditions as irf: no cache flush, no clock locking, every launch profiled.
        # shellcheck disable=SC2086
        step "ncu $id" "$out/logs/$id.ncu.log" "$ncu" --csv --print-units base \
            --print-kernel-base demangled --cache-control none --clock-control none \
            --metrics "$metrics" --log-file "$out/ncu/$id.csv" "$apps/$app" $args
    done <<<"$cases"
    step "compare irf vs ncu" "$out/logs/compare.log" python3 "$src/tests/gpu/compare_ncu.py" \
        --irf "$out/irf" --ncu "$out/ncu" --only "$ncu_only" --out "$out/compare.md" \
        --json "$out/compare.json"
    tail -n 1 "$out/compare.md" 2>/dev/null | tee -a "$out/summary.txt"
elif [ $run_ncu = 1 ]; then
    note "SKIPPED ncu: not installed on this machine"
fi

# --- the PyTorch step: without irf, under irf, timing only; rounds interleaved ------------------
torch_step=$src/tests/gpu/torch/train_step.py
# shellcheck source=scripts/gpu-validate-steps.sh
. "$src/scripts/gpu-validate-steps.sh"
[ -n "$hazard_ids" ] && run_hazards "$hazard_ids"
[ -n "$replay_ids" ] && run_replay "$replay_ids"
[ $run_entry = 1 ] && run_entry
[ "$refused_long" -gt 0 ] && run_refused_pickup "$refused_long"
[ "$sigterm_loop" -gt 0 ] && run_sigterm_loop "$sigterm_loop"
[ "$graph_long" -gt 0 ] && run_graph_long "$graph_long"
[ "$operator_calls" -gt 0 ] && run_operators "$operator_calls"
for round in $(seq 1 "$torch_rounds"); do
    step "torch r$round baseline" "$out/torch/base-$round.log" python3 "$torch_step"
    if [ -n "$irfcli" ]; then
        step "torch r$round irf" "$out/torch/irf-$round.log" "$irfcli" run --lib "$libirf" \
            -o "$out/torch/irf-$round" --summary file -- python3 "$torch_step"
        step "torch r$round irf --samples 0" "$out/torch/timing-$round.log" "$irfcli" run \
            --lib "$libirf" --samples 0 -o "$out/torch/timing-$round" --summary file -- \
            python3 "$torch_step"
    else
        note "SKIPPED torch under irf: the irf launcher is not built"
    fi
done

# --- the projection's kernels: recorded with counters here, or timed only (--timing-only) --------
if [ $run_projection = 1 ] && [ -n "$irfcli" ]; then
    kernels=$src/tests/gpu/torch/projection_kernels.py
    samples=()
    [ $timing_only = 1 ] && samples=(--samples 0)
    step "projection kernels baseline" "$out/projection/base.log" python3 "$kernels"
    step "projection kernels irf" "$out/projection/irf.log" "$irfcli" run --lib "$libirf" \
        "${samples[@]}" -o "$out/projection/irf" --summary file -- python3 "$kernels"
fi

# --- issue 56 item 2: the step without irf, under `irf run` (defaults), `irf run --samples 0`,
# and `--samples 0` with the opt-in paths that have landed (IRF_TIMING=sampled,
# IRF_GRAPH_TIMING=graphs:3; then --fast-intercept), rounds interleaved; the step reports each mode's GPU time and the
# launching thread's CPU time (tests/gpu/torch/train_step.py)
o=$out/overhead
for round in $(seq 1 "$overhead_rounds"); do
    step "overhead r$round baseline" "$o/base-$round.log" python3 "$torch_step"
    if [ -z "$irfcli" ]; then
        note "SKIPPED overhead under irf: the irf launcher is not built"
        continue
    fi
    step "overhead r$round irf run" "$o/run-$round.log" "$irfcli" run --lib "$libirf" \
        -o "$o/run-$round" --summary file -- python3 "$torch_step"
    step "overhead r$round irf run --samples 0" "$o/run-s0-$round.log" "$irfcli" run \
        --lib "$libirf" --samples 0 -o "$o/run-s0-$round" --summary file -- python3 "$torch_step"
    step "overhead r$round --samples 0, opt-ins" "$o/run-optin-$round.log" env \
        IRF_TIMING=sampled IRF_GRAPH_TIMING=graphs:3 "$irfcli" run --lib "$libirf" --samples 0 \
        -o "$o/run-optin-$round" --summary file -- python3 "$torch_step"
    # issue 55 item 5: launches seen by libirf_entry.so (staged beside libirf.so) instead
    step "overhead r$round --samples 0 --fast-intercept" "$o/run-fast-$round.log" "$irfcli" run \
        --lib "$libirf" --samples 0 --fast-intercept -o "$o/run-fast-$round" --summary file \
        -- python3 "$torch_step"
done
if [ "$overhead_rounds" -gt 0 ]; then # the medians docs/performance.md quotes
    python3 "$src/tests/gpu/overhead_table.py" "$o" --json "$o/table.json" >"$o/table.md" 2>&1 &&
        tee -a "$out/summary.txt" <"$o/table.md"
fi

# --- calibration (quick first); the compiled PyTorch step and the full calibration last ----------
calibrate=$(find "$build" -name irf-calibrate -type f -perm -u+x | head -n 1)
if [ $run_calibrate = 1 ] && [ -z "$calibrate" ]; then
    note "SKIPPED irf-calibrate: not built"
elif [ $run_calibrate = 1 ]; then
    step "irf-calibrate --quick" "$out/logs/calibrate-quick.log" "$calibrate" --quick \
        -o "$out/calibrate-quick.yaml"
fi

[ -n "$kit_dir" ] && run_kit "$kit_dir"

# --- ncu beside a running irf: irf samples in its first milliseconds, then after 2 s without a
# sample releases the counters (idle_release.cpp); an ncu of another process must then succeed.
if [ $run_contention = 1 ] && [ -n "$ncu" ] && [ -n "$libirf" ]; then
    env CUDA_INJECTION64_PATH="$libirf" IRF_OUTPUT="$out/contention/irf" IRF_SUMMARY=file \
        IRF_LOG=debug timeout --preserve-status -s TERM 20 "$apps/irf-hz-loop" \
        >"$out/contention/irf.log" 2>&1 &
    irf_pid=$!
    sleep 4
    step "ncu beside an idle irf" "$out/contention/ncu.log" "$ncu" --metrics "$metrics" \
        --csv --log-file "$out/contention/ncu.csv" "$apps/irf-ka-stride" fp32-s1
    kill -TERM "$irf_pid" 2>/dev/null
    wait "$irf_pid" 2>/dev/null
fi

# --- the reverse: ncu holds the counters (profiling every launch of irf-hz-loop) while irf
# samples another app; irf must say so in one line and time its kernels (issue 36 item 5).
if [ $run_refused = 1 ] && [ -n "$ncu" ] && [ -n "$libirf" ]; then
    timeout --preserve-status -s TERM 25 "$ncu" --metrics sm__cycles_active.avg \
        --log-file "$out/refused/ncu.log" "$apps/irf-hz-loop" >"$out/refused/ncu-app.log" 2>&1 &
    ncu_pid=$!
    sleep 6
    step "irf while ncu holds the counters" "$out/refused/irf.log" env \
        CUDA_INJECTION64_PATH="$libirf" IRF_OUTPUT="$out/refused/irf" IRF_SUMMARY=both \
        IRF_LOG=info "$apps/irf-ka-stride" fp32-s1
    kill -TERM "$ncu_pid" 2>/dev/null
    wait "$ncu_pid" 2>/dev/null
    grep -h "^\[irf\]" "$out/refused/irf.log" | head -n 5 | tee -a "$out/summary.txt"
fi

if [ "$torch_compile" = 1 ] && [ -n "$irfcli" ]; then # CUDA graphs through the compiler too
    step "torch compile irf" "$out/torch/compile.log" "$irfcli" run --lib "$libirf" \
        -o "$out/torch/compile" --summary file -- python3 "$torch_step" --compile --no-graph \
        --launches 0 --steps 10
fi
if [ $run_calibrate = 1 ] && [ -n "$calibrate" ]; then
    step "irf-calibrate" "$out/logs/calibrate.log" "$calibrate" -o "$out/calibrate.yaml"
fi
[ -n "${sass_pid:-}" ] && wait "$sass_pid"
note "done: status $status, results in $out"
if [ -n "$pack" ]; then
    mkdir -p "$pack"
    cp "$out/summary.txt" "$pack/"
    [ -f "$out/compare.md" ] && cp "$out/compare.md" "$pack/"
    tar czf "$pack/gpu-validate.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
fi
exit $status
