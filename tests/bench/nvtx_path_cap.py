#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Exit cost of many distinct NVTX range names (issue #39 item 6, docs/performance.md).

Runs the injection harness on libirf.so with the fake backend three times, with the same
number of launches each: without NVTX ranges (the baseline), with one distinct range name per
launch up to the cap on region paths (intercept/nvtx_stack.hpp, k_max_paths = 2^14), and with
more distinct names than the cap. Prints the wall and CPU time, what the ranges add to the
baseline's CPU time (the launches are the same, so this is the exit's extra work), the peak RSS (with what the ranges add to the
baseline's, which holds the parsed fake script) and the profile's size; exits 1 when a run at
or beyond the cap costs more than 2 s at exit or 256 MiB of memory over the baseline.

    nvtx_path_cap.py HARNESS LIBIRF [--names N] [--launches N]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CAP = 1 << 14
EXIT_BUDGET_S = 2.0
RSS_BUDGET_MIB = 256


def write_script(path, launches, names):
    """A fake-backend script: `launches` launches of one kernel, launch i inside PyTorch-like
    ranges 'train_step/forward/op<i mod names>' (names = 0: outside every range). Distinct
    operator names, not emit_nvtx's 'seq = N', which libirf strips from the paths."""
    entries = []
    for i in range(launches):
        entry = {"kernel": "_Z4gemmPKfS0_Pf", "grid": [128, 1, 1], "block": [256, 1, 1],
                 "duration_ns": 1000, "counters": {"inst_warp": 1000, "time_ns": 1000}}
        if names:
            entry["nvtx"] = ["train_step", "forward",
                             "op%d" % (i % names)]
        entries.append(entry)
    script = {"gpu": {"name": "NVIDIA H100 80GB HBM3", "chip": "GH100", "cc": "9.0",
                      "sms": 132, "clock_hz": 1980000000},
              "passes": 1, "launches": entries}
    with open(path, "w") as f:
        json.dump(script, f)


def run(harness, libirf, script, stem):
    """Runs the harness once; returns (wall s, CPU s, peak RSS MiB, profile bytes)."""
    env = dict(os.environ, IRF_BACKEND="fake:" + script, IRF_OUTPUT=stem, IRF_SUMMARY="file",
               IRF_TARGETS="none", IRF_LOG="warn")
    start = time.monotonic()
    proc = subprocess.Popen([harness, libirf], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read()
    # wait4 gives this child's own peak RSS (RUSAGE_CHILDREN would keep the largest so far).
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    rss_mib = usage.ru_maxrss / 1024
    if proc.returncode != 0:
        sys.exit("harness failed (%d): %s" % (proc.returncode, err.decode(errors="replace")))
    return wall, usage.ru_utime + usage.ru_stime, rss_mib, os.path.getsize(stem + ".json")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("harness")
    parser.add_argument("libirf")
    parser.add_argument("--names", type=int, default=100000,
                        help="distinct names of the run beyond the cap (default 100000)")
    parser.add_argument("--launches", type=int, default=0,
                        help="launches per run (default: --names)")
    args = parser.parse_args()
    launches = args.launches or args.names
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        results = []
        for label, names in (("no ranges", 0), ("2^14 names (the cap)", min(CAP, launches)),
                             ("%d names" % args.names, args.names)):
            script = os.path.join(tmp, "script.json")
            write_script(script, launches, names)
            results.append((label, names) +
                           run(args.harness, args.libirf, script, os.path.join(tmp, "out")))
        _, _, base_wall, base_cpu, base_rss, _ = results[0]
        print("%d launches each; load average %.1f" % (launches, os.getloadavg()[0]))
        print("| run | wall s | CPU s | ranges' CPU s (- no ranges) | peak RSS MiB |"
              " ranges' RSS MiB | profile MB |")
        print("|---|---|---|---|---|---|---|")
        for label, names, wall, cpu, rss, size in results:
            extra_cpu, extra_rss = cpu - base_cpu, rss - base_rss
            print("| %s | %.2f | %.2f | %.2f | %.0f | %.0f | %.1f |" %
                  (label, wall, cpu, extra_cpu, rss, extra_rss, size / 1e6))
            # The fake script's own parse is in every run: the ranges' cost is the difference.
            # CPU time, not wall: the shared build machine's load inflates wall time.
            if names and (extra_cpu > EXIT_BUDGET_S or extra_rss > RSS_BUDGET_MIB):
                failed = True
    if failed:
        print("over budget: %.0f s at exit or %d MiB" % (EXIT_BUDGET_S, RSS_BUDGET_MIB))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
