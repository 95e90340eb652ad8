#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One pass per launch against kernel replay (issue 56 item 3).

Reads the profiles scripts/gpu-validate.sh --replay wrote (DIR/kernel/<app>.json and
DIR/launches/<app>.json: each known-answer app run once under IRF_REPLAY=kernel and once under
IRF_REPLAY=launches) and, for every case of tests/gpu/expected.json matched by --only:
  - each mode's counts a launch (counters / profiled_launches) against the case's known
    answers, within the case's tolerance (a count of 0 must be exactly 0);
  - the two modes against each other on every instruction, sector, byte and thread-class
    counter both have (informational beyond the known answers: the largest relative gap);
  - whether the launches-mode sample really was one by launches (the kernel's `replay` object).
Prints a Markdown table; --json writes the rows. Exit status 1 when a known answer is missed or
a case has no data in either mode, 2 on bad usage.
"""
import argparse
import json
import lzma
import os
import re
import sys

MODES = ("kernel", "launches")
# counters that are counts of work, the same at every launch of a deterministic kernel
COUNT_PREFIXES = ("inst_", "sectors_", "bytes_", "thread_", "ctas_")


def load_profile(path):
    """The profile at path (or at path.xz, as recordings are kept), or None when it is missing
    or not JSON."""
    try:
        if not os.path.exists(path) and os.path.exists(path + ".xz"):
            with lzma.open(path + ".xz", "rt", encoding="utf-8") as f:
                return json.load(f)
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError, lzma.LZMAError):
        return None


def find_kernel(profile, case):
    """The profile's kernel row of the case (name contains the case's kernel, same grid and
    block), or None when there is not exactly one."""
    if profile is None:
        return None
    want = case.get("launch", {})
    rows = []
    for row in profile.get("kernels", []):
        if case["kernel"] not in row.get("name", ""):
            continue
        launch = row.get("launch", {})
        if all(launch.get(k) == want[k] for k in ("grid", "block") if k in want):
            rows.append(row)
    return rows[0] if len(rows) == 1 else None


def per_launch(row):
    """The kernel's counters a launch (summed counters / profiled launches); {} without samples."""
    profiled = row.get("profiled_launches", 0) if row else 0
    if not row or profiled <= 0:
        return {}
    return {k: v / profiled for k, v in row.get("counters", {}).items()
            if isinstance(v, (int, float))}


def relative_gap(a, b):
    """|a - b| relative to the larger magnitude; 0 when both are 0."""
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def misses(counts, case):
    """The case's known answers this mode's counts miss, as 'name got/want' strings."""
    out = []
    for name, want in case["counts"].items():
        got = counts.get(name)
        if got is None:
            out.append(f"{name} absent")
        elif (want == 0 and got != 0) or (want != 0 and relative_gap(got, want) > case["tolerance"]):
            out.append(f"{name} {got:g}/{want:g}")
    return out


def largest_gap(a, b):
    """(counter, gap) of the largest relative gap between the modes' count counters."""
    best = ("-", 0.0)
    for name in sorted(set(a) & set(b)):
        if name.startswith(COUNT_PREFIXES):
            gap = relative_gap(a[name], b[name])
            if gap > best[1]:
                best = (name, gap)
    return best


def compare_case(case, directory):
    """The case's row: per mode its replay kind and the known answers missed; the modes' gap."""
    row = {"id": case["id"], "kernel": case["kernel"]}
    counts = {}
    for mode in MODES:
        kernel = find_kernel(load_profile(os.path.join(directory, mode, case["app"] + ".json")), case)
        counts[mode] = per_launch(kernel)
        replay = (kernel or {}).get("replay")
        row[mode] = {
            "found": bool(counts[mode]),
            "by_launches": bool(replay and replay.get("launches", 0) > 0),
            "missed": misses(counts[mode], case) if counts[mode] else ["no counters"],
        }
    name, gap = largest_gap(counts["kernel"], counts["launches"])
    row["largest_gap"] = {"counter": name, "relative": gap}
    row["ok"] = all(row[m]["found"] and not row[m]["missed"] for m in MODES)
    return row


def render(rows):
    """The Markdown table and its one-line verdict."""
    lines = ["| case | kernel replay | by launches | sample by launches | largest gap between modes |",
             "|---|---|---|---|---|"]
    for r in rows:
        cells = ["ok" if not r[m]["missed"] else "; ".join(r[m]["missed"]) for m in MODES]
        gap = r["largest_gap"]
        lines.append(f"| {r['id']} | {cells[0]} | {cells[1]} | "
                     f"{'yes' if r['launches']['by_launches'] else 'no'} | "
                     f"{gap['relative'] * 100:.2f}% ({gap['counter']}) |")
    bad = [r["id"] for r in rows if not r["ok"]]
    by_launches = sum(r["launches"]["by_launches"] for r in rows)
    lines.append("")
    lines.append(f"{len(rows) - len(bad)} of {len(rows)} cases meet their known answers in both "
                 f"modes; {by_launches} sampled by launches under IRF_REPLAY=launches"
                 + (f"; missed: {', '.join(bad)}" if bad else ""))
    return "\n".join(lines)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--expected", default=os.path.join(here, "expected.json"))
    p.add_argument("--dir", required=True, help="gpu-validate's replay/ folder")
    p.add_argument("--only", default=".", help="regex of case ids (default all)")
    p.add_argument("--json", help="also write the rows here")
    args = p.parse_args()
    try:
        cases = [c for c in json.load(open(args.expected, encoding="utf-8"))["cases"]
                 if re.search(args.only, c["id"])]
    except (OSError, ValueError, KeyError, re.error) as e:
        print(f"replay_compare: {args.expected} or --only: {e}", file=sys.stderr)
        return 2
    rows = [compare_case(c, args.dir) for c in cases]
    print(render(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0 if rows and all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
