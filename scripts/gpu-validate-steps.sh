# SPDX-License-Identifier: Apache-2.0
# Steps of scripts/gpu-validate.sh for issues 56, 57 and 58, sourced by it (uses its step, note,
# out, src, irfcli, libirf, torch_step and deadline). Each writes under $out/<step>/.

# --operators N: the KernelBench level-1 operators (tests/gpu/torch/operators.py, N calls of each
# in its own NVTX range) without irf (our times, to set beside the published ones) and under
# `irf run` with counters (the recording check-projection projects onto other GPUs; issue 57).
run_operators() {
    local calls=$1 dir=$out/operators runner=$src/tests/gpu/torch/operators.py
    mkdir -p "$dir"
    step "operators baseline" "$dir/base.log" env PYTHONUNBUFFERED=1 python3 "$runner" \
        --iters "$calls" --json "$dir/base.json"
    if [ -z "$irfcli" ]; then
        note "SKIPPED operators under irf: the irf launcher is not built"
        return
    fi
    step "operators irf" "$dir/irf.log" env PYTHONUNBUFFERED=1 IRF_LOG=info "$irfcli" run \
        --lib "$libirf" -o "$dir/irf" --summary file -- python3 "$runner" --iters "$calls" \
        --json "$dir/irf-runner.json"
    # the projection onto every GPU with published times, while still on the machine
    local report
    report=$(find "$build" -path '*/tools/irf-report' -type f -perm -u+x | head -n 1)
    [ -n "$report" ] && [ -f "$dir/irf.json" ] || return
    python3 "$src/tests/gpu/kernelbench_check.py" --report "$report" --profile "$dir/irf.json" \
        --calls "$calls" --out "$dir/check" >"$dir/check.log" 2>&1 &&
        tail -n 12 "$dir/check.log" | tee -a "$out/summary.txt"
}

# --graph-long N: the training step, then its graph replays, then N tiny launches, timing only
# under irf (issue 58 item 4: after a graph's synthetic correlation ids no launch may be lost).
run_graph_long() {
    local launches=$1 dir=$out/graph-long
    mkdir -p "$dir"
    [ -n "$irfcli" ] || { note "SKIPPED graph-long: no irf launcher"; return; }
    step "graph-long irf --samples 0" "$dir/irf.log" env IRF_LOG=info "$irfcli" run \
        --lib "$libirf" --samples 0 -o "$dir/irf" --summary file -- python3 "$torch_step" \
        --steps 20 --launches "$launches"
    step "graph-long baseline" "$dir/base.log" python3 "$torch_step" --steps 20 \
        --launches "$launches"
}

# --kit DIR: the CUPTI cost kit, built on the host into DIR by `scripts/gpu-kit.sh prepare`:
# each CUPTI mechanism's cost alone (issue 56 item 1).
run_kit() {
    local kit=$1 dir=$out/kit
    mkdir -p "$dir"
    if [ ! -x "$kit/launch_loop" ]; then
        note "SKIPPED kit: $kit/launch_loop not found (scripts/gpu-kit.sh prepare)"
        return
    fi
    step "cupti cost kit" "$dir/run.log" "$src/scripts/gpu-kit.sh" run "$kit" "$dir"
    python3 "$src/tests/gpu/kit_table.py" "$dir/kit.log" --json "$dir/kit.json" \
        >"$dir/table.md" 2>&1 && tee -a "$out/summary.txt" <"$dir/table.md"
}

# --hazards REGEX: the cases of tests/gpu/hazards.json whose id matches, each under libirf.so
# with IRF_LOG=debug as ctest runs them (NVTX injection too), into hazards/<id>.{json,txt,log};
# a case ctest already kept there is not run again (`ctest -L gpu` keeps them through
# IRF_GPU_HAZARD_OUT, but the prepared calls skip ctest). Issue 58 items 1, 3 and 5: the apps'
# own lines (launch-call times, capture results) go to summary.txt with irf's release and
# capture lines; the rest is in the logs. A case fails when the app's exit status or its line
# is not the case's, or when its profile's kernel counts are not (hazard_profile below; the
# NVTX region is checked by ctest's test_gpu_hazards only).
run_hazards() {
    local regex=$1 dir=$out/hazards id case_env app expect log
    [ -n "$libirf" ] || { note "SKIPPED hazards: libirf.so not found"; return; }
    while read -r id case_env app expect; do
        [ -n "$id" ] || continue
        if [ "$case_env" = ctest-only ]; then
            note "SKIPPED hazard $id: it ends by a signal, run by ctest only"
            continue
        fi
        log=$dir/$id.log
        [ -f "$log" ] && { note "kept    hazard $id (by ctest)"; continue; }
        # shellcheck disable=SC2086 # the case's env is a word list
        step "hazard $id" "$log" env ${case_env//,/ } CUDA_INJECTION64_PATH="$libirf" \
            NVTX_INJECTION64_PATH="$libirf" IRF_OUTPUT="$dir/$id" IRF_SUMMARY=file \
            IRF_LOG=debug "$apps/$app"
        if ! grep -qF -- "$expect" "$log"; then
            note "FAILED  hazard $id: no line with '$expect'"
            status=1
        fi
        hazard_profile "$id" "$dir/$id.json" >"$dir/$id.check" 2>&1 || {
            note "FAILED  hazard $id: the profile is not the case's (hazards/$id.check)"
            status=1
        }
        { grep -E "^irf-hz-" "$log"; grep -iE "^\[irf.*(releas|disabl|captur)" "$log" |
            head -n 8; cat "$dir/$id.check"; } | sed "s/^/  $id: /" | tee -a "$out/summary.txt"
    done < <(python3 - "$src/tests/gpu/hazards.json" "$regex" <<'PY'
import json, re, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    if not re.search(sys.argv[2], c["id"]):
        continue
    if c.get("signal") or c["exit"] != 0:
        print(c["id"], "ctest-only", c["app"], "-")
        continue
    env = [f"{k}={v}" for k, v in c.get("env", {}).items()] + ["IRF_CASE=" + c["id"]]
    print(c["id"], ",".join(env), c["app"], c["stdout"])
PY
    )
}

# hazard_profile ID PROFILE: the case's kernel checks (`kernel` and each of `also`) against the
# profile, one line each, and the coverage's discarded samples and lost durations; exit 1 on a
# mismatch or a missing or broken profile.
hazard_profile() {
    python3 - "$src/tests/gpu/hazards.json" "$1" "$2" <<'PY'
import json, sys
case = next(c for c in json.load(open(sys.argv[1]))["cases"] if c["id"] == sys.argv[2])
try:
    profile = json.load(open(sys.argv[3]))
except (OSError, ValueError) as e:
    sys.exit(f"profile: MISMATCH: {e}")
bad = 0
for k in ([case] if "kernel" in case else []) + case.get("also", []):
    found = [r for r in profile.get("kernels", []) if k["kernel"] in r.get("name", "")]
    if len(found) != 1:
        print(f"{k['kernel']}: MISMATCH: {len(found)} kernels match")
        bad += 1
        continue
    launches, profiled = found[0]["launches"], found[0]["profiled_launches"]
    low, high = k.get("profiled_min", 0), k.get("profiled_max", profiled)
    ok = launches == k["launches"] and low <= profiled <= high
    bad += not ok
    print(f"{k['kernel']}: {'ok' if ok else 'MISMATCH'}: launches {launches} (want "
          f"{k['launches']}), profiled {profiled} (want {low}..{k.get('profiled_max', 'any')})")
cov = profile.get("coverage", {})
kept = {key: cov[key] for key in ("discarded_samples", "lost_durations", "invalid_durations")
        if key in cov}
print("coverage:", kept or "nothing discarded or lost")
sys.exit(1 if bad else 0)
PY
}

# --replay REGEX: the known-answer apps of the tests/gpu/expected.json cases whose id matches,
# each run once (every variant) with 16 launches a kernel under IRF_REPLAY=kernel and then
# =launches (one pass on each of a kernel's next launches), into replay/<mode>/<app>.{json,log};
# tests/gpu/replay_compare.py holds both to the known answers and to each other (issue 56
# item 3). Each step's seconds in summary.txt are the run's wall time under that mode.
run_replay() {
    local regex=$1 dir=$out/replay app mode
    [ -n "$libirf" ] || { note "SKIPPED replay: libirf.so not found"; return; }
    for app in $(python3 -c 'import json, re, sys
print(" ".join(sorted({c["app"] for c in json.load(open(sys.argv[1]))["cases"]
                       if re.search(sys.argv[2], c["id"])})))' "$src/tests/gpu/expected.json" "$regex"); do
        for mode in kernel launches; do
            mkdir -p "$dir/$mode"
            # debug: each pass's Start/Stop with passIndex and isAllPassSubmitted (question 17)
            step "replay $mode $app" "$dir/$mode/$app.log" env KA_LAUNCHES=16 IRF_REPLAY=$mode \
                CUDA_INJECTION64_PATH="$libirf" IRF_OUTPUT="$dir/$mode/$app" IRF_SUMMARY=file \
                IRF_LOG=debug "$apps/$app"
        done
    done
    python3 "$src/tests/gpu/replay_compare.py" --expected "$src/tests/gpu/expected.json" \
        --only "$regex" --dir "$dir" --json "$dir/compare.json" >"$dir/compare.md" 2>&1 ||
        { note "FAILED  replay compare (replay/compare.md)"; status=1; }
    tail -n 4 "$dir/compare.md" | tee -a "$out/summary.txt"
    replay_ncu_application "$regex"
}

# ncu's own answer to docs/cupti-notes.md question 17: the same cases under ncu with
# `--replay-mode application` (a pass per run of the whole app, as irf's one pass per launch
# takes a pass per launch) and irf's metric set: do its instrumented counters (smsp__sass_*) read
# 0 too? Into replay/ncu-application/<case>.csv.
replay_ncu_application() {
    local regex=$1 dir=$out/replay/ncu-application id app args
    [ -n "$ncu" ] && [ -n "$irf_set" ] || { note "SKIPPED ncu application replay"; return; }
    mkdir -p "$dir"
    while read -r id app args; do
        [ -n "$id" ] || continue
        # shellcheck disable=SC2086 # args are a word list
        step "ncu application replay $id" "$dir/$id.log" env KA_LAUNCHES=16 "$ncu" --csv \
            --print-units base --print-kernel-base demangled --replay-mode application \
            --cache-control none --clock-control none --launch-skip 1 --launch-count 1 \
            --metrics "$irf_set" --log-file "$dir/$id.csv" "$apps/$app" $args
    done < <(python3 -c 'import json, re, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    if re.search(sys.argv[2], c["id"]):
        print(c["id"], c["app"], *c["args"])' "$src/tests/gpu/expected.json" "$regex")
}

# --entry: libirf_entry.so's hooks on a real driver (issue 55 item 5, `irf run
# --fast-intercept`): irf-entry-probe's launch paths each seen once through the wrapper, and the
# probe's own line without the library. Into entry/.
run_entry() {
    local dir=$out/entry probe=$build/tests/gpu/apps/irf-entry-probe
    local lib=$build/intercept/cupti/libirf_entry.so
    mkdir -p "$dir"
    [ -x "$probe" ] && [ -f "$lib" ] || { note "SKIPPED entry: $probe or $lib not staged"; return; }
    step "entry probe with libirf_entry.so" "$dir/with.log" env LD_PRELOAD="$lib" "$probe"
    step "entry probe without it (exit 2 expected)" "$dir/without.log" sh -c \
        '"$1"; [ $? = 2 ]' sh "$probe"
    tee -a "$out/summary.txt" <"$dir/with.log"
    # libirf's side (IRF_FAST_INTERCEPT=1, what `irf run --fast-intercept` sets): irf-demo
    # profiled both ways must show the same kernels, launches, samples and totals (the
    # comparison is read by hand; the hooked log's debug line counts what the hook saw).
    [ -n "$libirf" ] && [ -n "$demo" ] || { note "SKIPPED entry/demo: no libirf or irf-demo"; return; }
    step "irf-demo under CUPTI's callbacks" "$dir/demo-callbacks.log" env \
        CUDA_INJECTION64_PATH="$libirf" IRF_OUTPUT="$dir/demo-callbacks" IRF_LOG=debug "$demo"
    step "irf-demo under the hook" "$dir/demo-hooked.log" env LD_PRELOAD="$lib" \
        IRF_FAST_INTERCEPT=1 CUDA_INJECTION64_PATH="$libirf" IRF_OUTPUT="$dir/demo-hooked" \
        IRF_LOG=debug "$demo"
    [ -n "$report" ] && "$report" compare "$dir/demo-callbacks.json" "$dir/demo-hooked.json" \
        2>&1 | tee "$dir/compare.txt" | head -n 20 | tee -a "$out/summary.txt"
    grep -h "fast intercept" "$dir/demo-hooked.log" | tee -a "$out/summary.txt"
}

# --refused-long S (issue 58 item 2, the pick-up): ncu holds the counters (profiling every launch
# of one irf-hz-loop) for its first 14 s while irf-hz-loop runs under irf for S seconds (S > 40:
# irf tries the counters again 30 s after the refusal; the loop widens its grid, a configuration
# that wants a sample, 8 s before the end); the profile must show the loop's kernel sampled
# after ncu ended, and the log the one busy line. Into refused-long/.
run_refused_pickup() {
    local seconds=$1 dir=$out/refused-long ncu_pid
    mkdir -p "$dir"
    [ -n "$ncu" ] && [ -n "$libirf" ] || { note "SKIPPED refused-long: no ncu or libirf"; return; }
    timeout --preserve-status -s TERM 14 "$ncu" --metrics sm__cycles_active.avg \
        --log-file "$dir/ncu.log" "$apps/irf-hz-loop" >"$dir/ncu-app.log" 2>&1 &
    ncu_pid=$!
    sleep 6
    step "irf after ncu let the counters go" "$dir/irf.log" sh -c '"$@"; [ $? = 143 ]' sh \
        env CUDA_INJECTION64_PATH="$libirf" IRF_OUTPUT="$dir/irf" IRF_SUMMARY=both \
        IRF_LOG=debug HZ_LOOP_WIDEN_AFTER_S=$((seconds - 8)) timeout --preserve-status -s TERM "$seconds" "$apps/irf-hz-loop"
    wait "$ncu_pid" 2>/dev/null
    grep -h "^\[irf\]" "$dir/irf.log" | grep -v debug | head -n 8 | tee -a "$out/summary.txt"
    python3 -c 'import json, sys
for k in json.load(open(sys.argv[1]))["kernels"]:  # one entry per launch configuration
    if "hz_increment" in k["name"]:
        print("refused-long: hz_increment launches", k["launches"], "profiled",
              k.get("profiled_launches"))' "$dir/irf.json" 2>&1 | tee -a "$out/summary.txt"
}

# --sigterm-loop S: irf-hz-loop under libirf.so (IRF_LOG=debug), SIGTERM after S seconds: the
# process must die of it within seconds, with its profile written (a thread stopped inside the
# driver once made the final flush wait 20 s and the profile was abandoned). Three variants:
# default (samples at the start), IRF_SAMPLES=0 (no range profiler at all) and a synchronize
# every 10,000 launches: after a sample in a loop that never synchronised no kernel record came
# back (H200, 2026-11-28): do records flow without a profiler, and does a sync let the idle
# release (its "releasing" and "released" lines) finish? Into sigterm-loop/<variant>.
run_sigterm_loop() {
    local seconds=$1 dir=$out/sigterm-loop variant extra
    mkdir -p "$dir"
    [ -n "$libirf" ] || { note "SKIPPED sigterm-loop: libirf.so not found"; return; }
    for variant in default samples0 sync10000; do
        case $variant in
        samples0) extra=(IRF_SAMPLES=0) ;;
        sync10000) extra=(HZ_LOOP_SYNC_EVERY=10000) ;;
        *) extra=() ;;
        esac
        step "SIGTERM after ${seconds}s in a launch loop ($variant)" "$dir/$variant.log" \
            sh -c '"$@"; [ $? = 143 ]' sh env CUDA_INJECTION64_PATH="$libirf" \
            IRF_OUTPUT="$dir/$variant" IRF_SUMMARY=file IRF_LOG=debug "${extra[@]}" \
            timeout --preserve-status -s TERM "$seconds" "$apps/irf-hz-loop"
        { grep -hE "^\[irf\].*(final flush|abandoned|profile written|did not return|releas|waiting)" \
            "$dir/$variant.log"
            python3 -c 'import json, sys
try:
    c = json.load(open(sys.argv[1]))["coverage"]
except (OSError, ValueError, KeyError) as e:
    sys.exit(f"no profile: {e}")
print("launches", c["launches"], "durations lost", c.get("lost_durations", 0), "profiled",
      c.get("profiled_launches", 0))' "$dir/$variant.json" 2>&1; } |
            sed "s/^/  sigterm-loop $variant: /" | tee -a "$out/summary.txt"
    done
}
