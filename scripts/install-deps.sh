#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what irf needs from Debian packages (only what is missing) and checks the CUDA toolkit.
set -euo pipefail

packages=(cmake g++ make libyaml-cpp-dev nlohmann-json3-dev libunwind-dev libre2-dev libgtest-dev
          libbenchmark-dev libcli11-dev openmpi-bin libopenmpi-dev python3-matplotlib python3-pandas
          clang-format chromium chromium-driver python3-selenium)
if [[ "${IRF_SANITIZERS:-0}" == 1 ]]; then packages+=(clang-14 libclang-rt-14-dev); fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "[irf] installing: ${missing[*]}" >&2
    sudo_cmd=""
    [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

# The HTML report's plotting library (npm registry, pinned and checked; irf-report html).
"$(dirname "$0")/fetch-plotly.sh" >/dev/null

cuda_root="${CUDAToolkit_ROOT:-/usr/local/cuda}"
if [[ ! -x "$cuda_root/bin/nvcc" ]]; then
    echo "[irf] error: CUDA toolkit not found at $cuda_root (set CUDAToolkit_ROOT)" >&2
    exit 1
fi
