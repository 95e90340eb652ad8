#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Mutation check of the test suite (docs/reliability.md, "Mutation check"); CI runs only --check.

Each mutant is a one-line bug put into a copy of the tree: a git worktree of HEAD under /tmp,
configured once with the `ci` preset (ccache when installed). For each mutant the script applies
the edit, builds only the targets its tests need, runs only those tests, and reports `caught`
(a test failed), `survived` (every test passed: a hole in the suite), `no-build` or `no-tests`
(its regex selects no test of the targets built: the mutant names the wrong targets); then it
restores the file (git checkout). Uncommitted changes are not in the copy: commit first.
--keep DIR reuses (or creates and keeps) a worktree; DIR may be a configured checkout of your own
as long as the mutated files have no uncommitted changes, which the restore would drop. Its build
then holds the last mutant's objects: rebuild before trusting it.

The mutants are in scripts/mutants.py. --check (ctest `unit.mutate_check`) builds nothing: every
mutant's line must occur exactly once in its file, differ from its mutation, and its test regex
must name a test of the tree, so that a refactor that moves a mutant's line fails CI instead of
retiring the mutant.

usage: scripts/mutate.py [--list | --check] [--keep DIR] [NAME ...]   (no NAME: every mutant)
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree when CI runs --check
from mutants import MUTANTS  # noqa: E402 (after the setting above)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


def anchor(path, mutant):
    """(the file's lines, the index of the mutant's line); a problem as text when that line
    is not there exactly once."""
    full = os.path.join(path, mutant.file)
    if not os.path.isfile(full):
        return None, f"{mutant.name}: no file {mutant.file}"
    with open(full, encoding="utf-8") as f:
        lines = f.read().split("\n")
    hits = [i for i, line in enumerate(lines) if line.strip() == mutant.before]
    if len(hits) != 1:
        return None, (f"{mutant.name}: {mutant.file} has {len(hits)} lines "
                      f"'{mutant.before}' (expected 1)")
    return (lines, hits[0]), ""


def apply(path, mutant):
    found, problem = anchor(path, mutant)
    if not found:
        raise SystemExit(problem)
    lines, hit = found
    line = lines[hit]
    lines[hit] = line[:len(line) - len(line.lstrip())] + mutant.after
    with open(os.path.join(path, mutant.file), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def check(path, mutant):
    apply(path, mutant)
    try:
        build = ["cmake", "--build", "build/ci", "-j2", "--target"] + mutant.targets
        if run(build, path) != 0:
            return "no-build"
        ctest = ["ctest", "--test-dir", "build/ci", "-R", mutant.tests, "--timeout", "300"]
        r = subprocess.run(ctest, cwd=path, capture_output=True, text=True)
        # A regex that selects no built test passes: its build target is missing, not a hole.
        if "No tests were found" in r.stdout + r.stderr:
            return "no-tests"
        if r.returncode == 0:
            return "survived"
        failed = [line.split(" - ", 1)[1].rsplit(" (", 1)[0] for line in r.stdout.splitlines()
                  if " - " in line and ("(Failed)" in line or "(Timeout)" in line)]
        return "caught by " + (", ".join(failed) or "ctest (exit %d)" % r.returncode)
    finally:
        subprocess.run(["git", "checkout", "--", mutant.file], cwd=path, check=True)


def test_names(root):
    """Every ctest name the tree declares, as far as ctest -R sees them: gtest cases as
    "<label>.<Suite>.<Case>" for both host labels, and add_test names."""
    names = set()
    case = re.compile(r"^\s*TEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\)", re.M)
    for path in glob.glob(os.path.join(root, "tests", "**", "*.cpp"), recursive=True):
        with open(path, encoding="utf-8", errors="replace") as f:
            for suite, name in case.findall(f.read()):
                names.update(f"{label}.{suite}.{name}" for label in ("unit", "integration"))
    for path in glob.glob(os.path.join(root, "tests", "**", "CMakeLists.txt"), recursive=True):
        with open(path, encoding="utf-8", errors="replace") as f:
            names.update(re.findall(r"add_test\(NAME\s+([\w.]+)", f.read()))
    return names


def target_tests(root):
    """{gtest target: the ctest names of its cases}, from each irf_add_gtest(NAME ... SOURCES
    ...) under tests/ and the TEST() cases of those sources."""
    case = re.compile(r"^\s*TEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\)", re.M)
    call = re.compile(r"irf_add_gtest\(NAME\s+(\w+)\s+LABEL\s+(\w+)(.*?)\)\s*$", re.S | re.M)
    out = {}
    for cmake in glob.glob(os.path.join(root, "tests", "**", "CMakeLists.txt"), recursive=True):
        with open(cmake, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for target, label, rest in call.findall(text):
            names = out.setdefault(target, set())
            for source in re.findall(r"[\w/]+\.cpp", rest.split("LIBS")[0]):
                path = os.path.join(os.path.dirname(cmake), source)
                if os.path.isfile(path):
                    with open(path, encoding="utf-8", errors="replace") as f:
                        names.update(f"{label}.{a}.{b}" for a, b in case.findall(f.read()))
    return out


def check_anchors(root):
    """The problems that would stop or blind a run: a mutant whose line is gone, occurs twice or
    is its own mutation, a name given twice, a test regex that names no test."""
    problems, seen = [], set()
    names = test_names(root)
    by_target = target_tests(root)
    for m in MUTANTS:
        if m.name in seen:
            problems.append(f"{m.name}: named twice")
        seen.add(m.name)
        problems += [problem for found, problem in [anchor(root, m)] if not found]
        if m.before == m.after.strip():
            problems.append(f"{m.name}: the mutation does not change the line")
        if not any(re.search(m.tests, n) for n in names):
            problems.append(f"{m.name}: tests '{m.tests}' match no test in tests/")
        built = set().union(*(by_target[t] for t in m.targets if t in by_target))
        if any(t in by_target for t in m.targets) and not any(re.search(m.tests, n)
                                                               for n in built):
            problems.append(f"{m.name}: tests '{m.tests}' match no test of its targets "
                            f"{', '.join(m.targets)}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--check", action="store_true",
                        help="check that every mutant's line occurs once, build nothing (CI)")
    parser.add_argument("--keep", metavar="DIR", help="reuse/keep this copy of the tree")
    args = parser.parse_args()
    if args.list:
        for m in MUTANTS:
            print(f"{m.name:30} {m.file}: {m.what}\n{'':30} tests: {m.tests}")
        return 0
    if args.check:
        problems = check_anchors(ROOT)
        for p in problems:
            print(p, file=sys.stderr)
        if not problems:
            print(f"{len(MUTANTS)} mutants, each line found once")
        return 1 if problems else 0
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
