# SPDX-License-Identifier: Apache-2.0
"""The overhead rounds of scripts/gpu-validate.sh (`--overhead N`: overhead/base-N.log,
run-N.log, run-s0-N.log, run-optin-N.log, run-fast-N.log, each with tests/gpu/torch/train_step.py's
`train_step:` JSON line) read into docs/performance.md's figures: per setting the median over
its rounds of each figure, and the eager step's, graph replay's and tiny launch's difference to
the baseline (issue 56 item 2).

usage: overhead_table.py DIR [DIR ...] [--json FILE]   (the rounds of every DIR pooled)"""
import argparse
import glob
import json
import os
import re
import statistics
import sys

SETTINGS = [("base", "without irf"), ("run", "`irf run` (defaults)"),
            ("run-s0", "`irf run --samples 0`"),
            ("run-optin", "`--samples 0`, `IRF_TIMING=sampled`, `IRF_GRAPH_TIMING=graphs:3`"),
            ("run-fast", "`--samples 0 --fast-intercept`")]
FIGURES = ["eager_ms", "eager_cpu_ms", "graph_ms", "graph_cpu_ms", "launch_us", "launch_cpu_us"]
LOG = re.compile(r"^(base|run|run-s0|run-optin|run-fast)-(\d+)\.log$")


def step_result(path):
    """The train_step JSON of one log, or None when the run wrote none (failed, cut short)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("train_step:"):
                return json.loads(line[len("train_step:"):])
    return None


def read_rounds(dirs):
    """{setting: [result, ...]} over every round log of `dirs`."""
    rounds = {}
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.log"))):
            match = LOG.match(os.path.basename(path))
            result = step_result(path) if match else None
            if result is not None:
                rounds.setdefault(match.group(1), []).append(result)
    return rounds


def medians(results):
    """{figure: median over the rounds} of the figures every round has."""
    return {f: statistics.median(r[f] for r in results) for f in FIGURES
            if results and all(f in r for r in results)}


def table(rounds):
    """[{setting, rounds, figures..., eager_pct, graph_pct, launch_delta_us}] in SETTINGS order."""
    base = medians(rounds.get("base", []))
    rows = []
    for key, label in SETTINGS:
        if key not in rounds:
            continue
        row = {"setting": label, "rounds": len(rounds[key]), **medians(rounds[key])}
        if key != "base" and base:
            row["eager_pct"] = 100 * (row["eager_ms"] / base["eager_ms"] - 1)
            row["graph_pct"] = 100 * (row["graph_ms"] / base["graph_ms"] - 1)
            row["launch_delta_us"] = row["launch_us"] - base["launch_us"]
        rows.append(row)
    return rows


def cell(row, figure, change=None, form="", unit=""):
    """A figure with its change to the baseline; "-" when a round lacked it (never a 0)."""
    if figure not in row:
        return "-"
    return f"{row[figure]:.2f}" + (f" ({row[change]:{form}}{unit})" if change in row else "")


def render(rows):
    out = ["| setting | rounds | eager step GPU ms | its thread CPU ms | graph replay ms | its CPU "
           "ms | tiny launch us |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        cells = [r["setting"], str(r["rounds"]), cell(r, "eager_ms", "eager_pct", "+.0f", "%"),
                 cell(r, "eager_cpu_ms"), cell(r, "graph_ms", "graph_pct", "+.1f", "%"),
                 cell(r, "graph_cpu_ms"), cell(r, "launch_us", "launch_delta_us", "+.1f")]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = table(read_rounds(args.dirs))
    if not rows:
        sys.exit("overhead_table: no round with a train_step line in " + ", ".join(args.dirs))
    print(render(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
