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
