#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The tools on a profile of many kernels (issue #34 item 4; docs/performance.md, "Tools on
100,000 kernels"): generates a raw profile of N kernels (big_profile.py), then times irf-report
analyze (text), csv, analyze -o (the analysed profile, projected onto one target), show of one
kernel of it and irf-plot of it, printing each one's wall time and peak resident memory.

Fails when a tool fails, when a tool's memory exceeds MEMORY_FACTOR times the file it reads (plus
a fixed allowance for the interpreter or program itself), or, when IRF_TOOLS_SECONDS is set,
when one takes longer (CI's loaded 2-core machines print the times without judging them).

    bench_tools_scale.py IRF_REPORT IRF_PLOT [N]      (N: 100000 unless given)
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MEMORY_FACTOR = 8
BASE_BYTES = 200e6  # the program before it reads anything (Python and matplotlib for irf-plot)
SECONDS = float(os.environ.get("IRF_TOOLS_SECONDS", "0"))


def run(name, argv, reads):
    """Runs argv; returns (seconds, peak RSS bytes), checked against the limits."""
    start = time.monotonic()
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen(argv, stdout=sink, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        stderr = proc.stderr.read().decode("utf-8", "replace")
        proc.stderr.close()
    seconds = time.monotonic() - start
    rss = usage.ru_maxrss * 1024
    code = os.waitstatus_to_exitcode(status)
    size = os.path.getsize(reads)
    print(f"[bench] {name:<10} {seconds:7.2f} s  {rss / 1e6:8.1f} MB RSS  "
          f"({rss / size:.1f} x its {size / 1e6:.0f} MB input)", flush=True)
    problems = []
    if code != 0:
        problems.append(f"{name} exited {code}: {stderr.strip()[-400:]}")
    if rss > MEMORY_FACTOR * size + BASE_BYTES:
        problems.append(f"{name}: {rss / 1e6:.0f} MB, over {MEMORY_FACTOR} x the input + "
                        f"{BASE_BYTES / 1e6:.0f} MB")
    if SECONDS and seconds > SECONDS:
        problems.append(f"{name}: {seconds:.1f} s, over IRF_TOOLS_SECONDS={SECONDS:g}")
    return problems


def main(argv):
    report, plot = argv[0], argv[1]
    kernels = int(argv[2]) if len(argv) > 2 else 100000
    with tempfile.TemporaryDirectory(prefix="irf-bench-tools-") as tmp:
        raw = os.path.join(tmp, "raw.json")
        analysed = os.path.join(tmp, "analysed.json")
        subprocess.run([sys.executable, os.path.join(HERE, "big_profile.py"), str(kernels), raw],
                       check=True)
        print(f"[bench] {kernels} kernels: raw profile {os.path.getsize(raw) / 1e6:.0f} MB")
        problems = run("analyze", [report, "analyze", raw], raw)
        problems += run("csv", [report, "csv", raw, "-o", os.path.join(tmp, "k.csv")], raw)
        problems += run("analyze -o", [report, "analyze", raw, "--targets", "b200", "-o",
                                       analysed], raw)
        if os.path.exists(analysed):
            problems += run("show", [report, "show", analysed, "fma_chain_4<float, 4>"], analysed)
            problems += run("irf-plot", [plot, analysed, "-o", os.path.join(tmp, "fig"),
                                         "--format", "png"], analysed)
    for p in problems:
        print(f"[bench] FAIL {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
