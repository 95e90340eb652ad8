#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Bounded random-input test of irf-plot's loader and figure data path (#22 "Done when").

Mutates the golden analysed profile (JSON values replaced by other types, hostile strings,
huge or negative numbers, deep nesting; raw bytes flipped, cut, inserted) with a fixed seed for
--cases inputs (the same inputs every run), at most --seconds. Each input goes through what irf-plot does before drawing (load, select,
the per-figure point functions) and every --draw-every-th accepted input through the whole of
irf_plot.main() with SVG output. Passes when every input ends in exit 0 or 2: any other
exception is a failure, printed with the seed and case number that reproduce it."""
import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile
import time
import traceback

from plot_support import golden, have_matplotlib

import irf_plot  # noqa: E402 (plot_support puts tools/irf_plot on sys.path)
from irfplot import figures, figures_flops
from irfplot.profile import PlotError, items_for, load, select

HOSTILE_STRINGS = ["", "$x^$", "\x1b]0;t\x07", "a\nb", "\ud800", "x" * 100000, "(", "%s%n",
                   "\u202e", "0", "NaN"]
HOSTILE_NUMBERS = [0, -1, 1e308, -1e308, 1e-320, 2 ** 64, True, 10 ** 40, 0.5]


def random_value(rng, depth=0):
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice(HOSTILE_STRINGS)
    if kind == 1:
        return rng.choice(HOSTILE_NUMBERS)
    if kind == 2:
        return None
    if kind == 3 and depth < 3:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 4 and depth < 3:
        return {rng.choice(["name", "l1", "gips_warp", "target", "x"]): random_value(rng, depth + 1)
                for _ in range(rng.randrange(4))}
    nested = "[" * rng.choice([10, 70, 2000])
    return json.loads(nested + "]" * len(nested)) if len(nested) < 900 else nested


def containers(doc):
    """Every (container, key) pair of the document, iteratively."""
    found, stack = [], [doc]
    while stack:
        node = stack.pop()
        keys = node.keys() if isinstance(node, dict) else range(len(node))
        for key in keys:
            found.append((node, key))
            if isinstance(node[key], (dict, list)):
                stack.append(node[key])
    return found


def mutate_json(rng, doc):
    for _ in range(rng.randrange(1, 6)):
        slots = containers(doc)
        if not slots:
            break
        node, key = rng.choice(slots)
        node[key] = random_value(rng)
    return json.dumps(doc).encode("utf-8", "surrogatepass")


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        op, at = rng.randrange(3), rng.randrange(len(data) or 1)
        if op == 0 and data:
            data[at] = rng.randrange(256)
        elif op == 1:
            del data[at:at + rng.randrange(1, 200)]
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20)))
    return bytes(data)


def data_path(path):
    """What irf-plot computes before drawing: exceptions other than PlotError are bugs."""
    doc = load(path)
    items = items_for(select(doc["kernels"], None, 8))
    for it in items:
        figures.irm_points(it.after)
        figures.wall_points(it.after, "global")
        figures.wall_points(it.after, "shared")
        figures_flops.precision_of(it.after)
        figures_flops.flop_points(it.after)
    figures_flops.projection_rows(items)


def whole_tool(path, out):
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = irf_plot.main([path, "-o", out, "--format", "svg"])
    if code not in (0, 2) or (code == 2 and err.getvalue().count("\n") != 1):
        raise AssertionError(f"exit {code}: {err.getvalue()!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--cases", type=int, default=0, help="stop after this many (0: no limit)")
    parser.add_argument("--draw-every", type=int, default=25)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    base = golden()
    base_bytes = json.dumps(base).encode()
    draw = have_matplotlib()
    deadline = time.monotonic() + args.seconds
    counts = {"cases": 0, "refused": 0, "accepted": 0, "drawn": 0}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.json")
        while time.monotonic() < deadline and not (0 < args.cases <= counts["cases"]):
            case = counts["cases"]
            data = (mutate_json(rng, json.loads(base_bytes)) if rng.random() < 0.7
                    else mutate_bytes(rng, base_bytes))
            with open(path, "wb") as f:
                f.write(data)
            try:
                data_path(path)
                counts["accepted"] += 1
                if draw and counts["accepted"] % args.draw_every == 0:
                    whole_tool(path, os.path.join(tmp, "out"))
                    counts["drawn"] += 1
            except PlotError:
                counts["refused"] += 1
            except BaseException:  # noqa: B902 (any other exception is the finding)
                keep = os.path.join(tempfile.gettempdir(), f"irf-plot-fuzz-{args.seed}-{case}.json")
                with open(keep, "wb") as f:
                    f.write(data)
                traceback.print_exc()
                print(f"FAIL: seed {args.seed} case {case}; input kept as {keep}")
                return 1
            counts["cases"] += 1
    print(f"irf-plot fuzz: seed {args.seed}, {counts['cases']} inputs, {counts['refused']} "
          f"refused with exit 2, {counts['drawn']} drawn end to end, no other outcome")
    return 0


if __name__ == "__main__":
    sys.exit(main())
