#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads the CUPTI cost kit's log (../shared/tools/cupti-cost-kit, run by scripts/gpu-validate.sh
--kit into kit/kit.log) into the table docs/performance.md keeps (issue 56 item 1): each CUPTI
mechanism's cost per launch alone, as its row minus the `none` row (launching-thread CPU first,
the hosts' wall times being noisy), the median over rounds; the graph cost per node; a sample's
phases by allocated memory and pass count; and whether user replay took one pass per launch.

usage: kit_table.py KIT_LOG [--json FILE]   (prints Markdown)
"""
import argparse
import json
import re
import statistics
import sys

# The kit's own lines put its counts between the name and the figures ("cb: [ovh] mode=cb
# callbacks=304000 records=0 eager n=..."), as the H200 log of 2026-11-28 shows.
EAGER = re.compile(r"^\[(\d+)\] (\S+): (?:.*? )?eager .*?median wall ([\d.]+) ns/launch, "
                   r"thread CPU ([\d.]+) ns/launch")
THREADS = re.compile(r"^(\S+): (?:.*? )?threads=(\d+) .*?median thread CPU ([\d.]+) ns/launch")
GRAPH = re.compile(r"^(\S+): (?:.*? )?graph nodes=(\d+) .*?GPU ([\d.]+) ns/node, "
                   r"host ([\d.]+) ns/replay")
SAMPLE_SETUP = re.compile(r"^chip (\S+), (\d+) metrics, (\d+) passes, extra (\d+) GiB;")
SAMPLE = re.compile(r"^kernel replay, median of \d+ samples \(ms\): Start ([\d.]+) \| launch "
                    r"\(replays\) ([\d.]+) \| Stop ([\d.]+) \| Decode ([\d.]+) \| "
                    r"Evaluate\+reset ([\d.]+) \| total ([\d.]+)")
USER = re.compile(r"^user replay: (\d+) launches for (\d+) passes, ([\d.]+) ms in the loop, "
                  r"decode\+evaluate ([\d.]+) ms, dropped (\d+)")


def parse(lines):
    """The log's figures: {"eager": {mode: [(wall, cpu), ...]}, "threads", "graph", "samples",
    "user"}; lines it does not know are skipped (build output, errors)."""
    out = {"eager": {}, "threads": {}, "graph": {}, "samples": [], "user": []}
    setup = None
    for line in lines:
        line = line.strip()
        if m := EAGER.match(line):
            out["eager"].setdefault(m[2], []).append((float(m[3]), float(m[4])))
        elif m := THREADS.match(line):
            out["threads"][m[1]] = float(m[3])
        elif m := GRAPH.match(line):
            out["graph"][m[1]] = float(m[3])
        elif m := SAMPLE_SETUP.match(line):
            setup = {"metrics": int(m[2]), "passes": int(m[3]), "extra_gib": int(m[4])}
        elif (m := SAMPLE.match(line)) and setup is not None:
            phases = ["start", "launch", "stop", "decode", "evaluate", "total"]
            out["samples"].append(dict(setup, **{p: float(v) for p, v in zip(phases, m.groups())}))
            setup = None
        elif m := USER.match(line):
            out["user"].append({"launches": int(m[1]), "passes": int(m[2]),
                                "loop_ms": float(m[3]), "dropped": int(m[5])})
    return out


def eager_costs(eager):
    """Per mode: median wall and CPU ns a launch over the rounds, and their excess over `none`."""
    medians = {mode: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
               for mode, rows in eager.items()}
    base = medians.get("none")
    return {mode: {"wall": w, "cpu": c,
                   "wall_added": None if base is None else w - base[0],
                   "cpu_added": None if base is None else c - base[1]}
            for mode, (w, c) in medians.items()}


def cell(value):
    return "?" if value is None else f"{value:+.0f}"


def markdown(figures):
    lines = ["| mechanism | CPU ns/launch | added CPU | wall ns/launch | added wall |",
             "|---|---:|---:|---:|---:|"]
    for mode, c in sorted(eager_costs(figures["eager"]).items(),
                          key=lambda item: item[1]["cpu"]):
        lines.append(f"| {mode} | {c['cpu']:.0f} | {cell(c['cpu_added'])} | {c['wall']:.0f} "
                     f"| {cell(c['wall_added'])} |")
    if figures["threads"]:
        base = figures["threads"].get("none")
        lines += ["", "| 8 threads | CPU ns/launch | added |", "|---|---:|---:|"]
        lines += [f"| {m} | {v:.0f} | {cell(None if base is None else v - base)} |"
                  for m, v in figures["threads"].items()]
    if figures["graph"]:
        base = figures["graph"].get("none")
        lines += ["", "| graph replay | GPU ns/node | added |", "|---|---:|---:|"]
        lines += [f"| {m} | {v:.0f} | {cell(None if base is None else v - base)} |"
                  for m, v in figures["graph"].items()]
    if figures["samples"]:
        lines += ["", "| sample (kernel replay) | passes | extra GiB | Start | launch | Stop | "
                      "Decode | Evaluate | total ms |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        lines += [f"| {s['metrics']} metrics | {s['passes']} | {s['extra_gib']} | {s['start']} | "
                  f"{s['launch']} | {s['stop']} | {s['decode']} | {s['evaluate']} | {s['total']} |"
                  for s in figures["samples"]]
    for u in figures["user"]:
        verdict = "one pass a launch" if u["launches"] == u["passes"] else "not one pass a launch"
        lines.append(f"\nuser replay: {u['launches']} launches for {u['passes']} passes "
                     f"({verdict}), {u['loop_ms']} ms, {u['dropped']} dropped")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--json", help="also write the parsed figures here")
    args = parser.parse_args()
    try:
        with open(args.log, encoding="utf-8", errors="replace") as f:
            figures = parse(f)
    except OSError as error:
        print(f"kit_table: cannot read {args.log}: {error.strerror}", file=sys.stderr)
        return 2
    if not figures["eager"]:
        print(f"kit_table: {args.log} holds no eager launch rows (did the kit run?)",
              file=sys.stderr)
        return 2
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(dict(figures, eager_costs=eager_costs(figures["eager"])), f, indent=1)
    print(markdown(figures), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
