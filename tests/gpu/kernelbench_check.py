#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The KernelBench projection check (issue 57): one H100 recording of the level-1 operators
projected onto every GPU with published times, per operator, beside the naive scalings.

For each GPU of the published file it runs `irf-report check-projection PROFILE --published FILE
--target KEY --calls N --format json` into OUT/KEY.json, then prints one table (and writes
OUT/table.md and OUT/table.json): headline operators (measured >= 20 us) with the model's MAPE,
time-weighted MAPE, interval coverage and the three naive MAPEs, and the launch-bound operators
apart. --ours compares the runner's own times without irf (operators.py --json) with the
published ones of --ours-gpu, and adds a second table over the comparable operators only: those
whose kernels fill at least 80% of the call on our GPU (the published times are CUDA-event times
of eager calls: host time no kernel model projects) and whose time on our GPU is within
0.8-1.25x of the published one of --ours-gpu (the same kernels ran: the published set used
another PyTorch and CUDA). A PROFILE ending in .xz is decompressed into OUT first. --expect compares the table with a recorded one and exits 1 when a
target got worse (CI replays the H100 recording this way: tests/gpu/CMakeLists.txt).
"""
import argparse
import json
import lzma
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PUBLISHED = os.path.join(HERE, "..", "data", "projection-public", "kernelbench",
                         "published_level1.json")
# A target may move this much (absolute, in shares) before --expect calls it worse: the figures
# are recomputed from the same recording, so only a change of the model moves them.
TOLERANCE = 0.002


def run_check(report, profile, published, key, calls, out_dir):
    """check-projection's JSON for one target, or {"error": its one line}."""
    path = os.path.join(out_dir, key + ".json")
    proc = subprocess.run([report, "check-projection", profile, "--published", published,
                           "--target", key, "--calls", str(calls), "--format", "json",
                           "-o", path], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["failed"]}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def row_of(key, check):
    if "error" in check:
        return {"target": key, "error": check["error"][0]}
    head, fast = check["headline"], check["launch_bound"]
    naive = [head["mape_sm_clock"], head["mape_dram"], head["mape_by_bound"]]
    return {"target": key, "operators": head["count"], "mape": head["mape"],
            "weighted_mape": head["weighted_mape"], "inside": head["inside_share"],
            "mape_sm_clock": naive[0], "mape_dram": naive[1], "mape_by_bound": naive[2],
            "beats_all": head["count"] > 0 and all(head["mape"] < n for n in naive),
            "launch_bound": fast["count"], "launch_bound_mape": fast["mape"],
            "left_out": len(check["left_out"])}


def pct(value):
    return f"{100 * value:.1f}%"


def table_md(rows):
    lines = ["| target | operators | MAPE | time-weighted | inside | SMs x clock | DRAM | by bound "
             "| beats all | launch-bound (MAPE) | left out |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['target']} | {r['error']} |||||||||")
            continue
        lines.append(
            f"| {r['target']} | {r['operators']} | {pct(r['mape'])} | {pct(r['weighted_mape'])} "
            f"| {pct(r['inside'])} | {pct(r['mape_sm_clock'])} | {pct(r['mape_dram'])} "
            f"| {pct(r['mape_by_bound'])} | {'yes' if r['beats_all'] else 'no'} "
            f"| {r['launch_bound']} ({pct(r['launch_bound_mape'])}) | {r['left_out']} |")
    return "\n".join(lines) + "\n"


def ours_vs_published(ours_path, published, gpu):
    """Our own times without irf against the published ones of `gpu`: per-operator ratios."""
    with open(ours_path, encoding="utf-8") as f:
        ours = json.load(f)
    theirs = published["gpus"][gpu]["times_ms"]
    ratios = {}
    for op in ours.get("results", []):
        name = op.get("name", "")
        entry = theirs.get(name) or theirs.get(name + ".py")
        if entry and op.get("mean_ms", 0) > 0:
            ratios[name] = op["mean_ms"] / entry["mean"]
    if not ratios:
        return {"compared": 0}
    errors = [abs(r - 1) for r in ratios.values()]
    return {"compared": len(ratios), "median_ratio": statistics.median(ratios.values()),
            "mape": sum(errors) / len(errors),
            "within_10pct": sum(e <= 0.10 for e in errors) / len(errors)}


def comparable_names(ours_path, check):
    """The operators of `check` (--ours-gpu's check-projection JSON) that are comparable: kernels
    >= 80% of our call time, published time >= 20 us and within 0.8-1.25x of ours."""
    with open(ours_path, encoding="utf-8") as f:
        ours = {op["name"]: op for op in json.load(f).get("results", [])}
    names = set()
    for op in check.get("operators", []):
        mine = ours.get(op["name"], {}).get("median_ms", 0) * 1e6
        if mine <= 0:
            continue
        share, ratio = op["recorded_ns"] / mine, op["measured_ns"] / mine
        if share >= 0.8 and op["measured_ns"] >= 20000 and 0.8 <= ratio <= 1.25:
            names.add(op["name"])
    return names


def names_without(names, regex):
    """`names` less those `regex` finds in (re.search)."""
    return {name for name in names if not re.search(regex, name)}


def comparable_row(key, check, names):
    """row_of's fields over the comparable operators of one target's check."""
    if "error" in check:
        return {"target": key, "error": check["error"][0]}
    ops = [op for op in check["operators"] if op["name"] in names]
    if not ops:  # no figure rather than a 0% one
        return {"target": key, "error": "no comparable operators"}

    def mape(field):
        return sum(abs(op[field] - op["measured_ns"]) / op["measured_ns"] for op in ops) / len(ops)

    weight = sum(op["measured_ns"] for op in ops)
    naive = [mape("sm_clock_ns"), mape("dram_ns"), mape("by_bound_ns")]
    return {"target": key, "operators": len(ops), "mape": mape("predicted_ns"),
            "weighted_mape": sum(abs(op["predicted_ns"] - op["measured_ns"]) for op in ops) /
            weight,
            "inside": sum(op["low_ns"] <= op["measured_ns"] <= op["high_ns"] for op in ops) /
            len(ops),
            "mape_sm_clock": naive[0], "mape_dram": naive[1], "mape_by_bound": naive[2],
            "beats_all": all(mape("predicted_ns") < n for n in naive),
            "launch_bound": 0, "launch_bound_mape": 0.0, "left_out": 0}


def profile_path(profile, out_dir):
    """`profile`, or its decompressed copy in out_dir when it ends in .xz."""
    if not profile.endswith(".xz"):
        return profile
    path = os.path.join(out_dir, os.path.basename(profile)[:-3])
    with lzma.open(profile, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    return path


def worse(row, expected):
    """Why `row` is worse than `expected`, or ""."""
    if "error" in row:
        return "" if "error" in expected else "no check: " + row["error"]
    if "error" in expected:
        return ""
    reasons = []
    for field, direction in (("mape", 1), ("weighted_mape", 1), ("inside", -1)):
        if direction * (row[field] - expected[field]) > TOLERANCE:
            reasons.append(f"{field} {pct(expected[field])} -> {pct(row[field])}")
    if expected["beats_all"] and not row["beats_all"]:
        reasons.append("no longer beats every naive scaling")
    if row["operators"] < expected["operators"]:
        reasons.append(f"operators {expected['operators']} -> {row['operators']}")
    return "; ".join(reasons)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", required=True, help="the irf-report binary")
    parser.add_argument("--profile", required=True, help="the operators recorded under irf")
    parser.add_argument("--calls", required=True, type=int, help="calls of each NVTX range")
    parser.add_argument("--published", default=PUBLISHED)
    parser.add_argument("--out", required=True, help="directory for each target's check")
    parser.add_argument("--ours", help="operators.py --json of a run without irf")
    parser.add_argument("--ours-gpu", default="h100-sxm5")
    parser.add_argument("--expect", help="a table.json to compare with: exit 1 when worse")
    parser.add_argument("--without", metavar="REGEX",
                        help="also tabulate the comparable operators whose names do not match "
                             "REGEX (a breakdown; --expect never compares it)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with open(args.published, encoding="utf-8") as f:
        published = json.load(f)
    profile = profile_path(args.profile, args.out)
    checks = {key: run_check(args.report, profile, args.published, key, args.calls, args.out)
              for key in sorted(published["gpus"])}
    rows = [row_of(key, check) for key, check in checks.items()]
    result = {"rows": rows}
    if args.ours:
        result["ours_vs_published"] = ours_vs_published(args.ours, published, args.ours_gpu)
        names = comparable_names(args.ours, checks.get(args.ours_gpu, {}))
        result["comparable"] = [comparable_row(key, check, names) for key, check in checks.items()]
        if args.without:
            kept = names_without(names, args.without)
            result["comparable_without"] = {
                "regex": args.without,
                "rows": [comparable_row(key, check, kept) for key, check in checks.items()]}
    with open(os.path.join(args.out, "table.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    text = table_md(rows)
    if "comparable" in result:
        text += ("\nComparable operators only (kernels >= 80% of the call on our GPU, within "
                 f"0.8-1.25x of the published {args.ours_gpu} time):\n\n" +
                 table_md(result["comparable"]))
    if "comparable_without" in result:
        text += (f"\nComparable operators whose names do not match {args.without!r}:\n\n" +
                 table_md(result["comparable_without"]["rows"]))
    with open(os.path.join(args.out, "table.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text, end="")
    if "ours_vs_published" in result:
        print("ours vs published:", json.dumps(result["ours_vs_published"]))
    if args.expect:
        with open(args.expect, encoding="utf-8") as f:
            recorded = json.load(f)
        expected = {r["target"]: r for r in recorded["rows"]}
        failures = [f"{r['target']}: {why}" for r in rows if r["target"] in expected
                    for why in [worse(r, expected[r["target"]])] if why]
        kept = {r["target"]: r for r in recorded.get("comparable", [])}
        failures += [f"{r['target']} (comparable): {why}" for r in result.get("comparable", [])
                     if r["target"] in kept for why in [worse(r, kept[r["target"]])] if why]
        missing = sorted(set(expected) - {r["target"] for r in rows})
        failures += [f"{key}: no longer checked" for key in missing]
        for line in failures:
            print("WORSE", line)
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
