#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job in one command. With a GPU: build irf and profile the bundled demo app under
# libirf.so, printing the summary. Without a GPU: say so in one line and analyse + plot the
# bundled example profile instead. Either way it writes the interactive HTML report. Outputs go
# to out/quickstart/.
set -euo pipefail
cd "$(dirname "$0")/.."

# Build quietly; show the build log only when the build fails.
quiet_build() {
    local log
    log=$(mktemp)
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "[irf] error: build failed: $*" >&2
        exit 1
    fi
    rm -f "$log"
}
root=$(pwd)
out="$root/out/quickstart"
mkdir -p "$out"

scripts/install-deps.sh

gpu_reason=""
if ! command -v nvidia-smi >/dev/null 2>&1; then
    gpu_reason="nvidia-smi not found"
elif ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    gpu_reason="nvidia-smi lists no GPU"
fi

if [[ -z "$gpu_reason" ]]; then
    # Build for the GPU in this machine only: fastest build, exact code for the chip.
    cmake -S . -B build/quickstart -DCMAKE_CUDA_ARCHITECTURES=native -DBUILD_TESTING=OFF \
        -DIRF_BUILD_BENCH=OFF >/dev/null
    echo "[irf] building irf for this GPU (build/quickstart)..." >&2
    quiet_build cmake --build build/quickstart -j "$(nproc)" --target irf irf_inject irf-report \
        irf-demo
    echo "[irf] profiling irf-demo under libirf.so (outputs in $out)" >&2
    build/quickstart/tools/irf run --output "$out/demo-%p" --summary both --html -- \
        build/quickstart/tests/gpu/apps/irf-demo
    profile=$(ls -t "$out"/demo-*.json | head -n 1)
    report="${profile%.json}.html" # irf run --html wrote it beside the profile
    plot=build/quickstart/tools/irf-plot
else
    profile="$root/tests/data/examples/demo-profile.json"
    echo "[irf] no GPU ($gpu_reason): analysing the bundled example profile $profile instead" >&2
    cmake --preset ci >/dev/null
    echo "[irf] building irf-report (build/ci)..." >&2
    quiet_build cmake --build --preset ci -j "$(nproc)" --target irf-report
    build/ci/tools/irf-report analyze "$profile" --targets h200-sxm,b200,a100-sxm4-80gb \
        --json "$out/analysed.json"
    profile="$out/analysed.json"
    plot=build/ci/tools/irf-plot
    report="$out/report.html"
    build/ci/tools/irf-report html "$profile" -o "$report"
    # Counters recorded on a real GPU by others: an excerpt of a public ncu export (A100,
    # PyTorch BERT attention; tests/data/import/README.md), imported and analysed.
    real="$root/tests/data/import/ncu-long-2022-a100-bert.csv"
    echo "[irf] and a real recording: importing $real (public ncu export, A100)" >&2
    build/ci/tools/irf-report import "$real" --gpu a100-sxm4-40gb --targets h100-sxm5 \
        -o "$out/bert-a100.json" >&2
    build/ci/tools/irf-report analyze "$out/bert-a100.json" --json "$out/bert-a100-analysed.json"
    build/ci/tools/irf-plot "$out/bert-a100-analysed.json" -o "$out/figures-bert-a100" >/dev/null
    echo "[irf] its figures: $out/figures-bert-a100" >&2
    # And an Instruction Roofline from real counters: three public nvprof runs of a naive
    # transpose on a V100S (thread-based points at L1/L2/HBM; v100-sxm2 stands in for the
    # unshipped V100S; tests/data/import/README.md).
    v100s="$root/tests/data/import/nvprof-%s-2022-v100s-transpose.csv"
    echo "[irf] and an Instruction Roofline from real counters: nvprof, V100S transpose" \
        "(V100 SXM2 ceilings stand in for the unshipped V100S: its points, another GPU's roofs)" >&2
    # shellcheck disable=SC2059 # the format names the three runs' files
    build/ci/tools/irf-report import "$(printf "$v100s" metrics)" "$(printf "$v100s" events)" \
        "$(printf "$v100s" gpu-summary)" --gpu v100-sxm2 --targets a100-sxm4-80gb,h100-sxm5 \
        -o "$out/transpose-v100s.json" >&2
    build/ci/tools/irf-report analyze "$out/transpose-v100s.json" \
        --json "$out/transpose-v100s-analysed.json"
    build/ci/tools/irf-plot "$out/transpose-v100s-analysed.json" \
        -o "$out/figures-transpose-v100s" >/dev/null
    echo "[irf] its figures: $out/figures-transpose-v100s" >&2
fi

"$plot" "$profile" -o "$out/figures" >/dev/null
echo "[irf] figures written to $out/figures" >&2
echo "[irf] interactive report: $report (one file; open it in a browser)" >&2
