#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes R rank profiles of K kernels each for the merge benchmark (docs/performance.md,
"irf-report merge"): rank r is the example profile's header with `rank` r, and K kernels with
the example's counters, launches and times varied by rank so the per-rank statistics differ.
Standard library only.

    rank_profiles.py RANKS KERNELS DIR      (writes DIR/rank-00000.json ...)
"""
import json
import os
import sys

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "examples",
                       "demo-profile.json")


def main(argv):
    ranks, kernels, out_dir = int(argv[0]), int(argv[1]), argv[2]
    with open(EXAMPLE, encoding="utf-8") as f:
        doc = json.load(f)
    templates = doc.pop("kernels")
    doc.pop("ceilings_used", None)
    os.makedirs(out_dir, exist_ok=True)
    # One kernel's text with placeholders, so each rank costs a few string substitutions.
    bodies = []
    for i in range(kernels):
        t = templates[i % len(templates)]
        # The short name: the recorded kernels are "(anonymous namespace)::stream_triad(...)".
        base = t.get("display_name") or t["name"].split("(")[0]
        k = {"name": f"{base}_{i}(float*, int)", "mangled": f"_Z{base}_{i}Pfi",
             "call_site": "", "launch": t["launch"], "launches": "@L@", "profiled_launches": 1,
             "time_ns": {"total": "@T@", "min": "@M@", "mean": "@M@", "max": "@M@"},
             "counters": t["counters"], "notes": []}
        bodies.append(json.dumps(k))
    for r in range(ranks):
        doc["rank"] = r
        doc["pid"] = 1000 + r
        doc["host"] = f"node{r // 4}"
        head = json.dumps(doc)
        parts = []
        for i, body in enumerate(bodies):
            launches = 1 + (r + i) % 5
            mean = 1000.0 * (1 + (r * 31 + i * 7) % 97)
            parts.append(body.replace('"@L@"', str(launches)).replace('"@T@"', repr(
                mean * launches)).replace('"@M@"', repr(mean)))
        with open(os.path.join(out_dir, f"rank-{r:05d}.json"), "w", encoding="utf-8") as f:
            f.write(head[:-1] + ', "kernels": [' + ",".join(parts) + "]}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
