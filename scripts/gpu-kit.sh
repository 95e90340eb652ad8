#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gpu-kit.sh: the CUPTI cost kit (../shared/tools/cupti-cost-kit, a measurement aid, not irf
# code) for one device call (issue 56 item 1; docs/validation/README.md).
#   gpu-kit.sh prepare KIT_SRC DEST   copy the kit into DEST (an ignored folder of the checkout,
#                                     e.g. .kit) and build it here for sm_90 against this CUDA
#   gpu-kit.sh run DEST OUT           on the device: the kit's run_device.sh steps with the
#                                     binaries built here and fewer repetitions (about 2 min on
#                                     an H100 instead of 4-6), log in OUT/kit.log
set -uo pipefail
cuda=${CUDA:-/usr/local/cuda}
usage() { sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

prepare() {
    local src=$1 dest=$2 inc="-I$cuda/include -I$cuda/extras/CUPTI/include"
    local lib="-L$cuda/lib64 -L$cuda/extras/CUPTI/lib64"
    rm -rf "$dest" && cp -r "$src" "$dest" && chmod -R u+w "$dest" && cd "$dest" || exit 1
    # shellcheck disable=SC2086 # include and library flag lists
    g++ -std=c++17 -O2 -fPIC -shared $inc ovh_inject.cpp $lib -lcupti -o libovh_inject.so &&
        g++ -std=c++17 -O2 -fPIC -shared $inc ovh_gpa.cpp -ldl -o libovh_gpa.so &&
        "$cuda/bin/nvcc" -O2 -std=c++17 -arch=sm_90 launch_loop.cu -o launch_loop &&
        "$cuda/bin/nvcc" -O2 -std=c++17 -arch=sm_90 $inc replay_cost.cu $lib \
            -L"$cuda/lib64/stubs" -lcupti -lcuda -o replay_cost
}

# row LABEL MODE ARGS...: one launch_loop run with the kit's injection in MODE, on one line
row() {
    local label=$1 mode=$2
    shift 2
    echo -n "$label: "
    CUDA_INJECTION64_PATH=$PWD/libovh_inject.so OVH_MODE=$mode timeout 30 ./launch_loop "$@" 2>&1 |
        tr '\n' ' '
    echo
}

run() {
    local kit=$1 out=$2 mode round gib
    mkdir -p "$out"
    cd "$kit" || exit 1
    export LD_LIBRARY_PATH=$cuda/lib64:$cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
    {
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
        echo "== eager tiny launches, 2 interleaved rounds per mode (ns/launch: wall and CPU)"
        for round in 1 2; do
            for mode in none cb cbdom ck k cbck drv drvck ckpool; do
                row "[$round] $mode" "$mode" eager 50000 3 0
            done
            echo -n "[$round] gpa-wrapper: "
            LD_PRELOAD=$PWD/libovh_gpa.so timeout 30 ./launch_loop eager 50000 3 0 2>&1 |
                tr '\n' ' '
            echo
        done
        echo "== 8 launching threads"
        for mode in none cb ck cbck; do row "$mode" "$mode" threads 8 20000; done
        echo "== CUDA graph replay, 100 tiny nodes (GPU ns/node)"
        for mode in none ck graph; do row "$mode" "$mode" graph 100 1000; done
        echo "== range profiler sample phases (kernel replay) vs allocated memory and passes"
        for gib in 0 8 32; do timeout 60 ./replay_cost kernel "$gib" core 5; done
        timeout 60 ./replay_cost kernel 0 1pass 5
        timeout 60 ./replay_cost kernel 32 1pass 5
        echo "== one pass per launch (AutoRange + UserReplay, no save/restore)"
        timeout 60 ./replay_cost user 0 core
        timeout 60 ./replay_cost user 0 wide
    } 2>&1 | tee "$out/kit.log"
}

case ${1:-} in
prepare) [ $# -eq 3 ] || usage; prepare "$2" "$3" ;;
run) [ $# -eq 3 ] || usage; run "$2" "$3" ;;
*) usage ;;
esac
