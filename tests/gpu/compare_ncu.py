#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Compares irf's counters with Nsight Compute's for every known-answer case (issue 7).
#
# Inputs: expected.json (cases: app, args, kernel substring), ncu_metrics_gh100.txt (canonical ->
# ncu metric), a directory of irf profiles <case-id>.json and one of ncu CSVs <case-id>.csv
# (`ncu --csv --print-units base --print-kernel-base demangled --metrics ...`).
# Output: a Markdown table (stdout or --out) and, with --json, the same rows as JSON.
# Counts must agree within --tolerance (default 1%); time_ns and clock_hz are reported as
# ratios only. Exit status 1 when any count disagrees or a case lacks data, else 0.
import argparse
import csv
import json
import os
import re
import sys

RATIO_ONLY = {"time_ns", "clock_hz"}


def read_metric_map(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                canonical, metric = line.split()
                out[canonical] = metric
    return out


def parse_number(text):
    text = text.strip().replace(",", "")
    try:
        return float(text)
    except ValueError:
        return None


def read_ncu_csv(path, kernel):
    """{metric: value} of the second profiled launch of `kernel` (the first if only one)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l for l in f if l.startswith('"')]
    launches = {}
    for row in csv.DictReader(lines):
        if kernel not in row.get("Kernel Name", ""):
            continue
        value = parse_number(row.get("Metric Value", ""))
        if value is not None:
            launches.setdefault(row["ID"], {})[row["Metric Name"]] = value
    if not launches:
        return None
    ids = sorted(launches, key=lambda i: int(i))
    return launches[ids[1] if len(ids) > 1 else ids[0]]


def read_irf(path, kernel):
    """(per-launch counters, kernel name) of the kernel matching `kernel` in an irf profile."""
    with open(path, encoding="utf-8") as f:
        profile = json.load(f)
    for k in profile.get("kernels", []):
        if kernel in k.get("name", "") and k.get("profiled_launches", 0) > 0:
            n = k["profiled_launches"]
            return {c: v / n for c, v in k.get("counters", {}).items()}, k["name"]
    return None, None


def compare_case(case, metric_map, args):
    rows, problems = [], []
    irf_path = os.path.join(args.irf, case["id"] + ".json")
    ncu_path = os.path.join(args.ncu, case["id"] + ".csv")
    irf = read_irf(irf_path, case["kernel"])[0] if os.path.exists(irf_path) else None
    ncu = read_ncu_csv(ncu_path, case["kernel"]) if os.path.exists(ncu_path) else None
    if irf is None:
        problems.append(f"{case['id']}: no profiled kernel in {irf_path}")
    if ncu is None:
        problems.append(f"{case['id']}: no ncu rows in {ncu_path}")
    if irf is None or ncu is None:
        return rows, problems
    for canonical, metric in metric_map.items():
        a, b = irf.get(canonical), ncu.get(metric)
        want = case["counts"].get(canonical)
        row = {"case": case["id"], "counter": canonical, "metric": metric, "irf": a, "ncu": b,
               "expected": want, "deviation": None, "status": "ok"}
        if a is None or b is None:
            row["status"] = "irf missing" if a is None else "ncu missing"
        elif canonical in RATIO_ONLY:
            row["deviation"] = a / b - 1 if b else None
            row["status"] = "ratio"
        else:
            row["deviation"] = (a - b) / b if b else (0.0 if a == 0 else float("inf"))
            if abs(row["deviation"]) > args.tolerance:
                row["status"] = "MISMATCH"
                problems.append(f"{case['id']} {canonical}: irf {a:g} vs ncu {b:g}")
        rows.append(row)
    return rows, problems


def fmt(v):
    if v is None:
        return "-"
    return f"{v:.6g}"


def main():
    p = argparse.ArgumentParser(description=__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--expected", default=os.path.join(here, "expected.json"))
    p.add_argument("--metrics", default=os.path.join(here, "ncu_metrics_gh100.txt"))
    p.add_argument("--irf", required=True, help="directory of <case-id>.json irf profiles")
    p.add_argument("--ncu", required=True, help="directory of <case-id>.csv ncu outputs")
    p.add_argument("--tolerance", type=float, default=0.01)
    p.add_argument("--only", default="", help="regex of case ids to compare (default all)")
    p.add_argument("--out", help="Markdown file (default: stdout)")
    p.add_argument("--json", help="also write the rows as JSON here")
    args = p.parse_args()
    with open(args.expected, encoding="utf-8") as f:
        cases = [c for c in json.load(f)["cases"] if re.search(args.only, c["id"])]
    metric_map = read_metric_map(args.metrics)
    all_rows, problems = [], []
    for case in cases:
        rows, probs = compare_case(case, metric_map, args)
        all_rows += rows
        problems += probs
    lines = ["| case | counter | irf | ncu | expected | deviation | status |",
             "|---|---|---|---|---|---|---|"]
    for r in all_rows:
        dev = "-" if r["deviation"] is None else f"{100 * r['deviation']:+.3f}%"
        lines.append(f"| {r['case']} | {r['counter']} | {fmt(r['irf'])} | {fmt(r['ncu'])} | "
                     f"{fmt(r['expected'])} | {dev} | {r['status']} |")
    lines.append("")
    lines.append(f"{len(problems)} problem(s)")
    lines += [f"- {p}" for p in problems]
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(all_rows, f, indent=1)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
