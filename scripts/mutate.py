#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Mutation check of the test suite (not run by CI; docs/reliability.md, "Mutation check").

Each mutant is a one-line bug put into a copy of the tree: a git worktree of HEAD under /tmp,
configured once with the `ci` preset (ccache when installed). For each mutant the script applies
the edit, builds only the targets its tests need, runs only those tests, and reports `caught`
(a test failed), `survived` (every test passed: a hole in the suite) or `no-build`; then it
restores the file (git checkout). Uncommitted changes are not in the copy: commit first.
--keep DIR reuses (or creates and keeps) a worktree; DIR may be a configured checkout of your own
as long as the mutated files have no uncommitted changes, which the restore would drop. Its build
then holds the last mutant's objects: rebuild before trusting it.

usage: scripts/mutate.py [--list] [--keep DIR] [NAME ...]   (no NAME: every mutant)
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

# name, file, the line as it is (stripped, must occur once), the mutated line, build targets,
# ctest regex of the tests that must catch it (the named test first), what the bug is.
MUTANTS = [
    ("wall-tolerance-half-octave", "model/walls.cpp",
     "const double s_tolerance = std::pow(2.0, 0.25);",
     "const double s_tolerance = std::pow(2.0, 0.5);",
     ["test_model"], r"ModelWalls\.",
     "walls claim half an octave instead of a quarter (docs/model.md, Walls)"),
    ("wall-tolerance-eighth-octave", "model/walls.cpp",
     "const double s_tolerance = std::pow(2.0, 0.25);",
     "const double s_tolerance = std::pow(2.0, 0.125);",
     ["test_model"], r"ModelWalls\.", "walls claim an eighth of an octave"),
    ("l2-without-atomics", "model/instruction_roofline.cpp",
     'counters, {"l2_sectors_read", "l2_sectors_write", "l2_sectors_atom", "l2_sectors_red"});',
     'counters, {"l2_sectors_read", "l2_sectors_write"});',
     ["test_model"], r"ModelIrm\.", "L2 transactions leave out atomics and reductions"),
    ("level-bytes-without-atomics", "model/kernel_ceilings.cpp",
     'counters, {"l2_sectors_read", "l2_sectors_write", "l2_sectors_atom", "l2_sectors_red"});',
     'counters, {"l2_sectors_read", "l2_sectors_write"});',
     ["test_model"], r"ModelKernelCeilings\.", "Eq. 4 L2 bytes leave out atomics and reductions"),
    ("binding-tie-goes-last", "model/resource_times.cpp",
     "if (it != times.ns.end() && it->second && *it->second > longest) {",
     "if (it != times.ns.end() && it->second && *it->second >= longest) {",
     ["test_model"], r"ModelResourceTimes\.", "a tie of resource times does not go to issue"),
    ("irm-tie-goes-last", "model/instruction_roofline.cpp",
     "if (**level.roof < limit) {", "if (**level.roof <= limit) {",
     ["test_model"], r"ModelIrm\.", "a tie of roofline ceilings does not go to issue"),
    ("every-cold-launch-profiled", "intercept/sampler.cpp",
     "if (state.cold_claimed.exchange(true, std::memory_order_relaxed)) {",
     "if (state.cold_claimed.exchange(true, std::memory_order_relaxed) && false) {",
     ["test_intercept"], r"Sampler\.", "every first launch of a function is profiled"),
    ("saturated-kernel-profiled", "intercept/sampler.cpp",
     "return LaunchDecision::time_only; // the hot path of a saturated kernel",
     "return LaunchDecision::profile; // the hot path of a saturated kernel",
     ["bench_launch"], r"bench\.launch", "launches past their samples are profiled"),
    ("registers-not-split", "model/waves.cpp",
     "return static_cast<int>(warps_per_sub * sub_partitions / warps);",
     "return static_cast<int>(l.registers_per_sm / per_warp / warps + 0 * warps_per_sub);",
     ["test_model"], r"ModelWaves\.", "registers per SM not split over the sub-partitions"),
    ("no-signal-hand-off", "inject/lifecycle.cpp",
     "if (can_hand_off() && !wake_and_wait(k_signal_wait_ms)) {",
     "if (can_hand_off() && (s_finalize(), false)) {",
     ["test_fault_signals"],
     r"FaultSignals\.(SignalOnASmallStack|SignalDuringTheExitWrite)",
     "the signal handler finalizes itself instead of waking the finalizer thread"),
    ("do-nothing-libirf", "inject/injection.cpp",
     "if (s_called.exchange(true)) {", "if (true) {",
     ["test_fault_inject", "test_fault_signals"],
     r"FaultExit\.|FaultSignals\.ApplicationsOwn|FaultEnv\.|FaultConfig\.FileSettings",
     "InitializeInjection returns success and does nothing"),
]


def run(cmd, cwd, quiet=True):
    out = subprocess.DEVNULL if quiet else None
    return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=out).returncode


def make_copy(repo, keep):
    path = keep or tempfile.mkdtemp(prefix="irf-mutate-")
    if not os.path.isdir(os.path.join(path, ".git")) and not os.path.isfile(
            os.path.join(path, ".git")):
        shutil.rmtree(path, ignore_errors=True)
        subprocess.run(["git", "-C", repo, "worktree", "add", "--detach", path, "HEAD"],
                       check=True, stdout=subprocess.DEVNULL)
    if not os.path.isdir(os.path.join(path, "build", "ci")):
        launcher = []
        if shutil.which("ccache"):
            launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
                        "-DCMAKE_CUDA_COMPILER_LAUNCHER=ccache"]
        subprocess.run(["cmake", "--preset", "ci"] + launcher, cwd=path, check=True,
                       stdout=subprocess.DEVNULL)
    return path


def apply(path, mutant):
    name, rel, before, after = mutant[:4]
    full = os.path.join(path, rel)
    with open(full, encoding="utf-8") as f:
        lines = f.read().split("\n")
    hits = [i for i, line in enumerate(lines) if line.strip() == before]
    if len(hits) != 1:
        raise SystemExit(f"{name}: {rel} has {len(hits)} lines '{before}' (expected 1)")
    indent = lines[hits[0]][:len(lines[hits[0]]) - len(lines[hits[0]].lstrip())]
    lines[hits[0]] = indent + after
    with open(full, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def check(path, mutant):
    name, rel, _, _, targets, tests = mutant[:6]
    apply(path, mutant)
    try:
        build = ["cmake", "--build", "build/ci", "-j2", "--target"] + targets
        if run(build, path) != 0:
            return "no-build"
        ctest = ["ctest", "--test-dir", "build/ci", "-R", tests, "--timeout", "300"]
        r = subprocess.run(ctest, cwd=path, capture_output=True, text=True)
        if r.returncode == 0:
            return "survived"
        failed = [line.split(" - ", 1)[1].rsplit(" (", 1)[0] for line in r.stdout.splitlines()
                  if " - " in line and ("(Failed)" in line or "(Timeout)" in line)]
        return "caught by " + (", ".join(failed) or "ctest (exit %d)" % r.returncode)
    finally:
        subprocess.run(["git", "checkout", "--", rel], cwd=path, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--keep", metavar="DIR", help="reuse/keep this copy of the tree")
    args = parser.parse_args()
    if args.list:
        for m in MUTANTS:
            print(f"{m[0]:30} {m[1]}: {m[6]}\n{'':30} tests: {m[5]}")
        return 0
    chosen = [m for m in MUTANTS if not args.names or m[0] in args.names]
    unknown = set(args.names) - {m[0] for m in MUTANTS}
    if unknown:
        print("unknown mutant(s): " + ", ".join(sorted(unknown)), file=sys.stderr)
        return 2
    repo = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                          text=True, check=True).stdout.strip()
    path = make_copy(repo, args.keep)
    survived = 0
    try:
        for m in chosen:
            result = check(path, m)
            survived += not result.startswith("caught")
            print(f"{m[0]:30} {result}", flush=True)
    finally:
        if not args.keep:
            subprocess.run(["git", "-C", repo, "worktree", "remove", "--force", path])
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
