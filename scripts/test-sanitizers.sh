#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The unit and integration suites under AddressSanitizer + UndefinedBehaviorSanitizer (preset
# asan, built with Clang 14: half GCC's compile time) and under ThreadSanitizer (preset tsan).
# Builds only the test programs and what they run (TSan: the programs that start threads,
# tests/CMakeLists.txt irf_thread_tests), for
# one CUDA architecture, without benchmarks or GPU tests. Prints the time of each stage.
#   scripts/test-sanitizers.sh [asan|tsan ...]     (default: asan tsan)
set -euo pipefail
cd "$(dirname "$0")/.."

IRF_SANITIZERS=1 scripts/install-deps.sh
jobs=$(nproc)
presets=("$@")
((${#presets[@]})) || presets=(asan tsan)

# Sanitizer findings fail the test that triggered them. Leak checking is off: libirf keeps its
# state alive on purpose (finalization runs from atexit and signal handlers, after static
# destructors). TSan must let forked children of threaded parents run on (fork tests), and not
# report signal-unsafe calls (report_signal_unsafe=0): irf's own handler only writes a byte to a
# pipe now (docs/reliability.md), but the fault harness's applications call exit paths from theirs.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="die_after_fork=0:second_deadlock_stack=1:report_signal_unsafe=0"

source scripts/stage-times.sh
log=$(mktemp)
trap 'rm -f "$log"; [[ -n "${irf_stage_times_owner:-}" ]] && print_stage_times' EXIT

# ctest of one sanitizer build, its output also kept in $log (for the slowest tests).
# shellcheck disable=SC2317 # called through `stage`
sanitized_suite() {
    local build=$1 exclude=$2
    set +e
    ctest --test-dir "$build" -L 'unit|integration' -LE gpu -E "$exclude" \
        -j "$jobs" --output-on-failure --timeout 900 --no-tests=error 2>&1 | tee "$log"
    local status=${PIPESTATUS[0]}
    set -e
    return "$status"
}

status=0
for preset in "${presets[@]}"; do
    build="build/$preset"
    # Warnings are errors in the plain ci build; with sanitizers GCC 12 warns falsely
    # (maybe-uninitialized inside <regex>), so here they stay warnings.
    stage "$preset configure" cmake --preset "$preset" -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DIRF_ENABLE_GPU_TESTS=OFF -DIRF_BUILD_BENCH=OFF -DIRF_WERROR=OFF >/dev/null
    # irf_host_tests: every unit and integration test program and the binaries they execute.
    # TSan needs two threads to find a race: it builds the programs that start them
    # (tests/CMakeLists.txt, irf_thread_tests); ASan checks every program.
    target=irf_host_tests
    [[ "$preset" == tsan ]] && target=irf_thread_tests
    stage "$preset build" cmake --build "$build" -j "$jobs" --target "$target"
    # install_layout builds and installs everything (not sanitizer material); fuzzing has its
    # own sanitized build. The CUPTI host-API tests are left out because libcupti dlopens
    # libnvperf_host with RTLD_DEEPBIND, which the sanitizer runtimes refuse; under TSan also the
    # two tests whose threads exit after libunwind captured a call stack (libunwind's thread-exit
    # cleanup locks a mutex TSan has already retired and crashes). docs/reliability.md.
    exclude='install_layout|fuzz|MetricsHost\.|MetricsCommand\.'
    # The HTML report's browser checks test the page's scripts, not C++: the sanitized
    # irf-report writes pages in html_page and html_run.
    exclude+='|html_browser'
    # irf-plot is Python: its unit tests and the gtests that drive it run no code of irf's that
    # a sanitizer instruments (67-92 s of each sanitizer run in CI's time, #34).
    exclude+='|plot_python|ToolsPlot\.'
    # The KernelBench replay projects a 22 MB recording onto 11 GPUs: over its 120 s under TSan
    # (2026-11-28), and irf-report's projection is under both sanitizers in the model and
    # check-projection tests.
    exclude+='|kernelbench_check_replay|fit_interval_check'
    # Fifty processes of six launching threads (86 s under ASan): the slowest fault row runs
    # once, in the plain build; the signal hand-off stays under both sanitizers in the other
    # FaultSignals and FaultExit rows (docs/reliability.md).
    exclude+='|FaultSignals\.RandomSignalWhileSixThreadsLaunchFiftyTimes'
    # libirf_entry.so is preloaded (LD_PRELOAD) before the sanitizer runtime, which must come
    # first in the initial library list, and overrides dlsym, which the runtimes intercept: the
    # preloaded client stops at start. The wrapper's pass-through and hooks run in the plain build.
    exclude+='|EntryPoints\.'
    if [[ "$preset" == asan ]]; then
        # Clang 14's ASan allocator takes no lock around fork (llvm-project #75290 added it in
        # LLVM 18): a forked child that allocates, as irf's child reset does, can hang when
        # another thread held the allocator lock at the fork (once in a clean-clone run,
        # 2026-11-28). glibc's malloc is fork-safe: these rows run in the plain and TSan builds.
        exclude+='|InjectLifecycle\.ForkedChild|FaultProcess\.Fork'
    fi
    if [[ "$preset" == tsan ]]; then
        exclude+='|InjectFake\.ThreadsAllCounted|CuptiBackendCallbacks\.LaunchesFromManyThreads'
        # TSan keeps its shadow memory at fixed addresses; the 1 TiB stack limit this row sets
        # to make thread creation fail moves the kernel's mmap base into them and TSan aborts
        # at start ("unexpected memory mapping"). The row stays in the plain and ASan runs.
        exclude+='|FaultSignals\.FakeBackendThatCannotCreateAThreadSaysSoInOneLine'
        # 37 processes that parse one bad IRF_* value each, most of them with irf disabled at
        # load: single-threaded parsing TSan has nothing to check in, and the slowest row under
        # TSan (near 300 s loaded). It stays in the plain and ASan runs; the threads of startup,
        # the fake backend and finalization stay under TSan in the FaultExit, FaultSignals and
        # FaultProcess rows and EveryVariableBadAtOnceStillRunsTheApplication.
        exclude+='|FaultConfig\.EveryVariableWithInvalidValuesBehavesAsDocumented'
    fi
    stage "$preset tests" sanitized_suite "$build" "$exclude" || status=1
    note_slowest "$preset" "$log"
done
exit "$status"
