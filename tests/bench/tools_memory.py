#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Peak memory of irf-report csv, compare and check-projection per byte of profile (issue 52
item 10; docs/performance.md, "Tools' memory"): generates raw profiles of SMALL and LARGE kernels
(big_profile.py), runs each command on both and takes the growth of its peak resident memory
per byte of input between them, so the program's own fixed memory (code, shipped YAML) cancels
out. Fails when a command fails or grows by more than its bound (BOUNDS, bytes of memory per
byte of input; compare and check-projection read the file twice, so twice its size).

    tools_memory.py IRF_REPORT [SMALL LARGE]      (default 400 8000 kernels)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# Measured 2026-11-28 (docs/performance.md) between 400 and 8,000 kernels: csv 2.6, compare
# 2.8, check-projection 1.7 per byte read, each kernel analysed as read and its text released;
# before that 3.4, 3.4 and 2.6 (at 3,000 kernels the csv's peak hid the difference, so 8,000:
# about 25 s in all). At first csv 4.8, compare 44, check-projection 4.1.
BOUNDS = {"csv": 3.0, "compare": 3.1, "check-projection": 2.2}


def peak_rss(argv):
    """Runs argv (stdout discarded); returns its peak RSS in bytes, raising when it fails."""
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen(argv, stdout=sink, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        stderr = proc.stderr.read().decode("utf-8", "replace")
        proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {code}: {stderr.strip()[-400:]}")
    return usage.ru_maxrss * 1024


def commands(report, raw, tmp):
    """(name, argv, bytes read) of each command measured."""
    size = os.path.getsize(raw)
    return [
        ("csv", [report, "csv", raw, "-o", os.path.join(tmp, "k.csv")], size),
        ("compare", [report, "compare", raw, raw], 2 * size),
        ("check-projection", [report, "check-projection", raw, raw], 2 * size),
    ]


def main(argv):
    report = argv[0]
    small, large = (int(argv[1]), int(argv[2])) if len(argv) > 2 else (400, 8000)
    problems = []
    with tempfile.TemporaryDirectory(prefix="irf-tools-memory-") as tmp:
        measured = {}
        for kernels in (small, large):
            raw = os.path.join(tmp, f"raw{kernels}.json")
            subprocess.run([sys.executable, os.path.join(HERE, "big_profile.py"), str(kernels),
                            raw], check=True)
            for name, command, read in commands(report, raw, tmp):
                measured.setdefault(name, []).append((read, peak_rss(command)))
        for name, ((read_s, rss_s), (read_l, rss_l)) in measured.items():
            per_byte = (rss_l - rss_s) / (read_l - read_s)
            print(f"[memory] {name:<16} {rss_s / 1e6:7.1f} MB at {read_s / 1e6:.1f} MB read, "
                  f"{rss_l / 1e6:7.1f} MB at {read_l / 1e6:.1f} MB: {per_byte:.2f} x the bytes "
                  f"read (bound {BOUNDS[name]})", flush=True)
            if per_byte > BOUNDS[name]:
                problems.append(f"{name}: {per_byte:.2f} bytes of memory per byte read, over "
                                f"{BOUNDS[name]}")
    for p in problems:
        print(f"[memory] FAIL {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
