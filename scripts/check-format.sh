#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails (listing the files) when a tracked C++/CUDA source differs from clang-format's output.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "[irf] error: clang-format not installed" >&2; exit 1; }
bad=()
while IFS= read -r -d '' f; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files -z '*.cpp' '*.hpp' '*.cu' '*.cuh' 2>/dev/null)
if ((${#bad[@]})); then
    echo "[irf] error: not clang-formatted (run clang-format -i): ${bad[*]}" >&2
    exit 1
fi
echo "[irf] format: ok"
