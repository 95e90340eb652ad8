#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails (listing the files) when a tracked C++/CUDA source differs from clang-format's output.
# Files go to clang-format in batches on every core (one process per file took 54 s in CI's
# test command; docs/reliability.md, "Where CI's time goes").
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "[irf] error: clang-format not installed" >&2; exit 1; }
report=$(mktemp)
trap 'rm -f "$report"' EXIT
status=0
git ls-files -z '*.cpp' '*.hpp' '*.cu' '*.cuh' 2>/dev/null |
    xargs -0 -n 40 -P "$(nproc)" clang-format --dry-run --Werror 2>"$report" >/dev/null ||
    status=$?
# clang-format names each file it would change as "FILE:LINE:COL: error: code should be ...".
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' \
    "$report" | sort -u)
if ((${#bad[@]})); then
    echo "[irf] error: not clang-formatted (run clang-format -i): ${bad[*]}" >&2
    exit 1
fi
if ((status != 0)); then
    echo "[irf] error: clang-format failed: $(head -n 1 "$report")" >&2
    exit 1
fi
echo "[irf] format: ok"
