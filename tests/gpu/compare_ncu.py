#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Compares irf's counters with Nsight Compute's for every known-answer case (issue 7).
#
# Inputs: expected.json (cases: app, args, kernel substring), ncu_metrics_gh100.txt (canonical ->
# the ncu metric irf reads; `ref` rows add other metrics, shown but never failing),
# ncu_tolerances_gh100.txt (where and why a counter may differ by more than --tolerance), a
# directory of irf profiles <case-id>.json and one of ncu CSVs <case-id>.csv
# (`ncu --csv --print-units base --print-kernel-base demangled --metrics ...`).
# irf's counters are per profiled launch (sums / profiled_launches); ncu's are the second launch.
# Output: a Markdown table (stdout or --out) and, with --json, the same rows as JSON.
# Every counter of irf's kernel gets a row ("ncu missing" when the CSV lacks its metric).
# Exit status 1 when any count disagrees beyond its tolerance, a case lacks data (unless
# --present-only), or irf has a counter the map does not name; else 0.
# --check-map IRF_REPORT: only check that the map names, for each counter, the metric
# `IRF_REPORT metrics --chip GH100 --group all` lists (exit 1 on any difference).
import argparse
import csv
import fnmatch
import json
import os
import re
import subprocess
import sys

RATIO_ONLY = {"time_ns", "clock_hz"}
TIMING_REASON = ("durations and clocks are not counts (unlocked clocks move between runs): "
                 "shown as irf/ncu ratios; their product, the elapsed SM cycles, is compared in "
                 "docs/validation/h100-counters.md")


def read_metric_map(path):
    """[(canonical, metric, is_ref)] in file order."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) not in (2, 3) or (len(fields) == 3 and fields[2] != "ref"):
                sys.exit(f"{path}:{n}: expected `canonical metric [ref]`")
            rows.append((fields[0], fields[1], len(fields) == 3))
    return rows


def read_tolerances(path):
    """[{name, counter, cases, rel (None = ratio), abs, reason}] in file order."""
    rules = []
    if not path:
        return rules
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split(None, 5)
            if len(fields) < 6:
                sys.exit(f"{path}:{n}: expected `rule counter cases relative absolute reason`")
            name, counter, cases, rel, absolute, reason = fields
            rules.append({"name": name, "counter": counter, "cases": re.compile(cases),
                          "rel": None if rel == "ratio" else float(rel),
                          "abs": 0.0 if absolute == "-" else float(absolute),
                          "reason": reason.strip()})
    return rules


def rule_for(rules, case_id, canonical, default_rel):
    for rule in rules:
        if fnmatch.fnmatchcase(canonical, rule["counter"]) and rule["cases"].search(case_id):
            return rule
    return {"name": "", "rel": default_rel, "abs": 0.0, "reason": ""}


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


def judge(row, a, b, canonical, is_ref, rule, default_rel):
    """Fills deviation, status and rule of one row; True when it is a failure. The rule is
    named only where its allowance was needed beyond the default relative tolerance."""
    if b is None:
        row["status"] = "ncu missing"
        return False
    if canonical in RATIO_ONLY or rule["rel"] is None:
        row["deviation"] = a / b - 1 if b else None
        row["status"] = "ratio"
        row["rule"] = "timing" if canonical in RATIO_ONLY else rule["name"]
        return False
    row["deviation"] = (a - b) / b if b else (0.0 if a == 0 else float("inf"))
    if is_ref:
        row["status"] = "ref"
        return False
    diff = abs(a - b)
    if diff <= rule["abs"] or (b != 0 and diff <= rule["rel"] * abs(b)):
        row["rule"] = rule["name"] if diff > default_rel * abs(b) else ""
        return False
    row["status"] = "MISMATCH"
    row["rule"] = rule["name"]
    return True


def compare_case(case, metric_map, rules, args):
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
    mapped = {canonical for canonical, _, _ in metric_map}
    for canonical in sorted(set(irf) - mapped):
        problems.append(f"{case['id']} {canonical}: irf counter with no ncu metric in the map")
    for canonical, metric, is_ref in metric_map:
        if canonical not in irf:
            continue  # not collected in this run (an optional group); nothing to compare
        a, b = irf[canonical], ncu.get(metric)
        rule = rule_for(rules, case["id"], canonical, args.tolerance)
        row = {"case": case["id"], "counter": canonical, "metric": metric, "irf": a, "ncu": b,
               "expected": None if is_ref else case["counts"].get(canonical),
               "deviation": None, "status": "ok", "rule": ""}
        if judge(row, a, b, canonical, is_ref, rule, args.tolerance):
            problems.append(f"{case['id']} {canonical}: irf {a:g} vs ncu {b:g}")
        rows.append(row)
    return rows, problems


def check_map(metric_map, irf_report):
    """Differences between the map's non-ref rows and irf-report's GH100 metric table."""
    out = subprocess.run([irf_report, "metrics", "--chip", "GH100", "--group", "all"],
                         capture_output=True, text=True, check=True).stdout
    listed = {}
    # Columns may touch when a name is long: the metric starts at its unit prefix.
    pattern = re.compile(r"^\s*(core|sass|pipe_mix|tensor_types)\s+([a-z0-9_]+?)\s*"
                         r"((?:smsp|sm|l1tex|lts|dram|gpu)__\S+?)\s*(?:yes|no)\s*$")
    for line in out.splitlines():
        m = pattern.match(line)
        if m:
            listed[m.group(2)] = m.group(3)
    mine = {c: m for c, m, ref in metric_map if not ref}
    diffs = [f"{c}: irf-report reads {listed[c]}, the map says {mine.get(c, 'nothing')}"
             for c in sorted(listed) if mine.get(c) != listed[c]]
    diffs += [f"{c}: in the map, not read by irf-report" for c in sorted(set(mine) - set(listed))]
    if not listed:
        diffs.append("no metric lines in the irf-report output")
    return diffs


def fmt(v):
    if v is None:
        return "-"
    return f"{v:.6g}"


def render(all_rows, problems, rules, absent):
    lines = ["| case | counter | irf | ncu | expected | deviation | status | rule |",
             "|---|---|---|---|---|---|---|---|"]
    for r in all_rows:
        dev = "-" if r["deviation"] is None else f"{100 * r['deviation']:+.3f}%"
        lines.append(f"| {r['case']} | {r['counter']} | {fmt(r['irf'])} | {fmt(r['ncu'])} | "
                     f"{fmt(r['expected'])} | {dev} | {r['status']} | {r['rule'] or '-'} |")
    lines.append("")
    used = sorted({r["rule"] for r in all_rows if r["rule"]})
    if used:
        lines.append("Rules (tests/gpu/ncu_tolerances_gh100.txt):")
        reasons = {rule["name"]: rule["reason"] for rule in rules}
        reasons["timing"] = TIMING_REASON
        lines += [f"- {name}: {reasons.get(name, '')}" for name in used]
        lines.append("")
    if absent:
        lines.append("Not recorded (--present-only): " + ", ".join(absent))
        lines.append("")
    lines.append(f"{len(problems)} problem(s)")
    lines += [f"- {p}" for p in problems]
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--expected", default=os.path.join(here, "expected.json"))
    p.add_argument("--metrics", default=os.path.join(here, "ncu_metrics_gh100.txt"))
    p.add_argument("--tolerances", default=os.path.join(here, "ncu_tolerances_gh100.txt"),
                   help="rules file; '' for none (every count at --tolerance)")
    p.add_argument("--irf", help="directory of <case-id>.json irf profiles")
    p.add_argument("--ncu", help="directory of <case-id>.csv ncu outputs")
    p.add_argument("--tolerance", type=float, default=0.01)
    p.add_argument("--only", default="", help="regex of case ids to compare (default all)")
    p.add_argument("--present-only", action="store_true",
                   help="compare only the cases with both files; list the others")
    p.add_argument("--check-map", metavar="IRF_REPORT",
                   help="check the metric map against this irf-report binary and exit")
    p.add_argument("--out", help="Markdown file (default: stdout)")
    p.add_argument("--json", help="also write the rows as JSON here")
    args = p.parse_args()
    metric_map = read_metric_map(args.metrics)
    if args.check_map:
        diffs = check_map(metric_map, args.check_map)
        print("\n".join(diffs) if diffs else "metric map agrees with irf-report")
        return 1 if diffs else 0
    if not args.irf or not args.ncu:
        p.error("--irf and --ncu are required")
    rules = read_tolerances(args.tolerances)
    with open(args.expected, encoding="utf-8") as f:
        cases = [c for c in json.load(f)["cases"] if re.search(args.only, c["id"])]
    absent = []
    if args.present_only:
        def present(c):
            return (os.path.exists(os.path.join(args.irf, c["id"] + ".json")) and
                    os.path.exists(os.path.join(args.ncu, c["id"] + ".csv")))
        absent = [c["id"] for c in cases if not present(c)]
        cases = [c for c in cases if present(c)]
    all_rows, problems = [], []
    for case in cases:
        rows, probs = compare_case(case, metric_map, rules, args)
        all_rows += rows
        problems += probs
    if not cases:
        problems.append("no case to compare")
    text = render(all_rows, problems, rules, absent)
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
