#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The full test suite: installs dependencies, checks formatting, builds the `ci` preset and runs
# every test that needs no GPU (ctest -LE gpu), then the unit and integration suites again under
# ASan+UBSan and under ThreadSanitizer (scripts/test-sanitizers.sh). Fails when zero tests ran.
# Ends with the time of each stage (wall and CPU seconds), also when a stage failed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stage-times.sh

log=$(mktemp)
trap 'rm -f "$log"; print_stage_times' EXIT

# ctest's exit status, with its output also kept in $log (for the count of tests run).
# shellcheck disable=SC2317 # called through `stage`
plain_suite() {
    set +e
    ctest --test-dir build/ci -LE gpu --output-on-failure -j "$(nproc)" 2>&1 | tee "$log"
    local status=${PIPESTATUS[0]}
    set -e
    return "$status"
}

# clang-14: the libFuzzer test of the loaders
stage "dependencies" env IRF_SANITIZERS=1 scripts/install-deps.sh
stage "format check" scripts/check-format.sh
stage "ci configure" cmake --preset ci >/dev/null
stage "ci build" cmake --build --preset ci -j "$(nproc)"
status=0
stage "ci tests" plain_suite || status=$?
note_slowest "ci" "$log"
total=$(sed -n 's/.*tests passed, [0-9]* tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)
if [[ -z "$total" || "$total" -eq 0 ]]; then
    echo "[irf] error: no test ran" >&2
    exit 1
fi
# Golden files are snapshots checked in: a test run (IRF_UPDATE_GOLDEN=1 included) must leave
# tests/data as committed.
if ! git diff --exit-code --stat -- tests/data; then
    echo "[irf] error: tests/data changed during the test run (golden update? commit or revert)" >&2
    exit 1
fi
# The sanitizer builds run even when the plain suite failed: their reports help with the failure.
sanitizers=0
scripts/test-sanitizers.sh asan tsan || sanitizers=$?
if ((status != 0)); then
    exit "$status"
fi
exit "$sanitizers"
