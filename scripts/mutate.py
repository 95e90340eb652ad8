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
from typing import NamedTuple


class Mutant(NamedTuple):
    """A one-line bug and the tests that must catch it."""
    name: str
    file: str
    before: str  # the line as it is (stripped; must occur once in the file)
    after: str  # the mutated line
    targets: list  # build targets its tests need
    tests: str  # ctest regex of the tests that must catch it (the named test first)
    what: str  # the bug, in words


WALL_TOLERANCE = "const double s_tolerance = std::pow(2.0, 0.25);"
L2_READ_WRITE = 'counters, {"l2_sectors_read", "l2_sectors_write"});'
L2_SECTORS = L2_READ_WRITE.replace("});", ', "l2_sectors_atom", "l2_sectors_red"});')


def model_mutant(name, file, before, after, tests, what):
    """A mutant of model/ that the model unit tests (target test_model) must catch."""
    return Mutant(name, file, before, after, ["test_model"], tests, what)


MUTANTS = [
    model_mutant("wall-tolerance-half-octave", "model/walls.cpp", WALL_TOLERANCE,
                 WALL_TOLERANCE.replace("0.25", "0.5"), r"ModelWalls\.",
                 "walls claim half an octave instead of a quarter (docs/model.md, Walls)"),
    model_mutant("wall-tolerance-eighth-octave", "model/walls.cpp", WALL_TOLERANCE,
                 WALL_TOLERANCE.replace("0.25", "0.125"), r"ModelWalls\.",
                 "walls claim an eighth of an octave"),
    model_mutant("l2-without-atomics", "model/instruction_roofline.cpp", L2_SECTORS,
                 L2_READ_WRITE, r"ModelIrm\.", "L2 transactions leave out atomics and reductions"),
    model_mutant("level-bytes-without-atomics", "model/kernel_ceilings.cpp", L2_SECTORS,
                 L2_READ_WRITE, r"ModelKernelCeilings\.",
                 "Eq. 4 L2 bytes leave out atomics and reductions"),
    model_mutant("binding-tie-goes-last", "model/resource_times.cpp",
                 "if (it != times.ns.end() && it->second && *it->second > longest) {",
                 "if (it != times.ns.end() && it->second && *it->second >= longest) {",
                 r"ModelResourceTimes\.", "a tie of resource times does not go to issue"),
    model_mutant("irm-tie-goes-last", "model/instruction_roofline.cpp",
                 "if (**level.roof < limit) {", "if (**level.roof <= limit) {", r"ModelIrm\.",
                 "a tie of roofline ceilings does not go to issue"),
    Mutant("every-cold-launch-profiled", "intercept/sampler.cpp",
           "if (state.cold_claimed.exchange(true, std::memory_order_relaxed)) {",
           "if (state.cold_claimed.exchange(true, std::memory_order_relaxed) && false) {",
           ["test_intercept"], r"Sampler\.", "every first launch of a function is profiled"),
    Mutant("saturated-kernel-profiled", "intercept/sampler.cpp",
           "return LaunchDecision::time_only; // the hot path of a saturated kernel",
           "return LaunchDecision::profile; // the hot path of a saturated kernel",
           ["bench_launch"], r"bench\.launch", "launches past their samples are profiled"),
    model_mutant("registers-not-split", "model/waves.cpp",
                 "return static_cast<int>(warps_per_sub * sub_partitions / warps);",
                 "return static_cast<int>(l.registers_per_sm / per_warp / warps"
                 " + 0 * warps_per_sub);",
                 r"ModelWaves\.", "registers per SM not split over the sub-partitions"),
    Mutant("no-signal-hand-off", "inject/lifecycle.cpp",
           "if (can_hand_off() && !wake_and_wait(k_signal_wait_ms)) {",
           "if (can_hand_off() && (s_finalize(), false)) {", ["test_fault_signals"],
           r"FaultSignals\.(SignalOnASmallStack|SignalDuringTheExitWrite)",
           "the signal handler finalizes itself instead of waking the finalizer thread"),
    Mutant("do-nothing-libirf", "inject/injection.cpp", "if (s_called.exchange(true)) {",
           "if (true) {", ["test_fault_inject", "test_fault_signals"],
           r"FaultExit\.|FaultSignals\.ApplicationsOwn|FaultEnv\.|FaultConfig\.FileSettings",
           "InitializeInjection returns success and does nothing"),
]


def run(cmd, cwd, quiet=True):
    out = subprocess.DEVNULL if quiet else None
    return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=out).returncode


def make_copy(repo, keep):
    path = keep or tempfile.mkdtemp(prefix="irf-mutate-")
    if not os.path.exists(os.path.join(path, ".git")):  # a checkout or a worktree
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
    full = os.path.join(path, mutant.file)
    with open(full, encoding="utf-8") as f:
        lines = f.read().split("\n")
    hits = [i for i, line in enumerate(lines) if line.strip() == mutant.before]
    if len(hits) != 1:
        raise SystemExit(f"{mutant.name}: {mutant.file} has {len(hits)} lines "
                         f"'{mutant.before}' (expected 1)")
    line = lines[hits[0]]
    lines[hits[0]] = line[:len(line) - len(line.lstrip())] + mutant.after
    with open(full, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def check(path, mutant):
    apply(path, mutant)
    try:
        build = ["cmake", "--build", "build/ci", "-j2", "--target"] + mutant.targets
        if run(build, path) != 0:
            return "no-build"
        ctest = ["ctest", "--test-dir", "build/ci", "-R", mutant.tests, "--timeout", "300"]
        r = subprocess.run(ctest, cwd=path, capture_output=True, text=True)
        if r.returncode == 0:
            return "survived"
        failed = [line.split(" - ", 1)[1].rsplit(" (", 1)[0] for line in r.stdout.splitlines()
                  if " - " in line and ("(Failed)" in line or "(Timeout)" in line)]
        return "caught by " + (", ".join(failed) or "ctest (exit %d)" % r.returncode)
    finally:
        subprocess.run(["git", "checkout", "--", mutant.file], cwd=path, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--keep", metavar="DIR", help="reuse/keep this copy of the tree")
    args = parser.parse_args()
    if args.list:
        for m in MUTANTS:
            print(f"{m.name:30} {m.file}: {m.what}\n{'':30} tests: {m.tests}")
        return 0
    chosen = [m for m in MUTANTS if not args.names or m.name in args.names]
    unknown = set(args.names) - {m.name for m in MUTANTS}
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
            print(f"{m.name:30} {result}", flush=True)
    finally:
        if not args.keep:
            subprocess.run(["git", "-C", repo, "worktree", "remove", "--force", path])
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
