#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a raw irf.profile/v1 of N distinct kernels for the tools' scale benchmark
(docs/performance.md, "Tools on 100,000 kernels"): the example profile's kernels
(tests/data/examples/demo-profile.json) repeated with distinct names, durations and counters
varied so they sort and spread, analysis removed. Written kernel by kernel, so the generator
itself stays small for any N. Standard library only.

    big_profile.py N OUT.json [--targets LIST]
"""
import argparse
import json
import os
import sys

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "examples",
                       "demo-profile.json")


def kernel(template, i):
    """Kernel i: template i % len(templates) under a distinct name, scaled so times differ."""
    k = {key: template[key] for key in ("call_site", "launch", "notes") if key in template}
    scale = 1.0 + (i * 7919 % 1000) / 250.0
    # The short name: the recorded kernels are "(anonymous namespace)::stream_triad(...)".
    base = template.get("display_name") or template["name"].split("(")[0]
    k["name"] = f"ns_{i % 13}::{base}_{i}<float, {i % 7}>(float*, int)"
    k["mangled"] = f"_Z{len(base) + len(str(i)) + 1}{base}_{i}Pfi"
    k["launches"] = 1 + i % 7
    k["profiled_launches"] = 1
    mean = template["time_ns"]["mean"] * scale
    k["time_ns"] = {"total": mean * k["launches"], "min": mean, "mean": mean, "max": mean}
    counters = dict(template["counters"])
    counters["time_ns"] = mean
    for name in ("inst_warp", "inst_thread", "dram_sectors_read", "l2_sectors_read"):
        if name in counters:
            counters[name] *= scale
    k["counters"] = counters
    return k


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", type=int)
    parser.add_argument("output")
    parser.add_argument("--targets", help="IRF_TARGETS recorded in the profile (default: the "
                        "example's, all shipped GPUs)")
    args = parser.parse_args(argv)
    with open(EXAMPLE, encoding="utf-8") as f:
        doc = json.load(f)
    templates = doc.pop("kernels")
    doc.pop("ceilings_used", None)
    doc.pop("regions", None)
    doc["coverage"]["kernels"] = args.kernels
    if args.targets:
        doc["config"]["IRF_TARGETS"] = args.targets
    head = json.dumps(doc, indent=2)
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(head[:-2] + ',\n  "kernels": [\n')
        for i in range(args.kernels):
            text = json.dumps(kernel(templates[i % len(templates)], i), indent=2)
            out.write(("    " if i == 0 else ",\n    ") + text.replace("\n", "\n    "))
        out.write("\n  ]\n}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
