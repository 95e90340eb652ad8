#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Imports KernelBench's published level-1 eager PyTorch times into irf's test data (issue 57).

Reads results/timing/<folder>/baseline_time_torch.json at one pinned commit of a local git copy of
ScalingIntelligence/KernelBench (a bare or mirror git directory: no work tree is needed) and writes
tests/data/projection-public/kernelbench/published_level1.json. The output depends only on that
commit, so running it twice gives the same bytes; `--check` compares instead of writing (exit 1 on
a difference). The folder chosen for each GPU is explained in that data folder's README.md.
"""
import argparse
import json
import os
import subprocess
import sys

REPO = "ScalingIntelligence/KernelBench"
COMMIT = "b5cc6a4b74d83c2a10bc070a8cea5ff336166cf3"
DEFAULT_MIRROR = "/work/.mirror/ScalingIntelligence+KernelBench/repo"
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(
    HERE, "..", "tests", "data", "projection-public", "kernelbench", "published_level1.json")

# irf ceilings key -> KernelBench results/timing folder and, where a folder mixes GPUs, the
# hardware string its entries must carry (A10G_modal's level 1 ran 60 problems on an A10 and 40
# on an A10G: two GPUs, two keys; README.md says why).
GPU_FOLDERS = [
    ("h100-sxm5", "H100_together", None),
    ("b200", "B200_together", None),
    ("a100-sxm4-40gb", "A100_modal", None),
    ("a100-sxm4-80gb", "A100-80GB_modal", None),
    ("l40s", "L40S_modal", None),
    ("l4", "L4_modal", None),
    ("t4", "T4_modal", None),
    ("a10g", "A10G_modal", "NVIDIA A10G"),
    ("a10", "A10G_modal", "NVIDIA A10"),
    ("rtx-a6000", "A6000_babel", None),
    ("rtx-3090-ti", "RTX_3090_Ti", None),
]
FIELDS = ("mean", "std", "min", "max", "num_trials", "hardware")
PROBLEM_DIR = "KernelBench/level1"


def git(mirror, *args):
    """Output of `git --git-dir=mirror args...` as text; exits with one line on failure."""
    result = subprocess.run(["git", "--git-dir", mirror, *args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"kernelbench_import: git {' '.join(args)} failed in {mirror}: "
                 f"{result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ''}")
    return result.stdout


def problem_number(stem):
    """KernelBench's leading problem number: '12_Matmul_with_diagonal_matrices_' -> 12."""
    return int(stem.split("_", 1)[0])


def level1_stems(mirror):
    """The level-1 problem file names without '.py', in problem order."""
    names = git(mirror, "ls-tree", "--name-only", f"{COMMIT}:{PROBLEM_DIR}").split()
    return sorted((n[:-3] for n in names if n.endswith(".py")), key=problem_number)


def gpu_entry(mirror, folder, stems, hardware_only):
    """One GPU's record: its folder, distinct hardware strings, and per-problem times (only the
    entries whose hardware is `hardware_only`, when given)."""
    path = f"results/timing/{folder}/baseline_time_torch.json"
    level1 = json.loads(git(mirror, "show", f"{COMMIT}:{path}")).get("level1", {})
    times = {}
    for stem in stems:
        entry = level1.get(stem + ".py")
        if not entry:  # absent or null in the published file: left out (README.md lists them)
            continue
        if hardware_only is not None and entry["hardware"] != hardware_only:
            continue  # another GPU of a mixed folder: under its own key
        times[stem] = {field: entry[field] for field in FIELDS}
    unknown = sorted(set(level1) - {s + ".py" for s in stems})
    if unknown:
        sys.exit(f"kernelbench_import: {path} names problems not in {PROBLEM_DIR}: {unknown}")
    hardware = sorted({t["hardware"] for t in times.values()})
    return {"folder": folder, "path": path, "hardware": hardware,
            "missing": [s for s in stems if s not in times], "times_ms": times}


def build(mirror):
    """The whole published_level1.json document."""
    stems = level1_stems(mirror)
    source = {
        "repo": REPO,
        "commit": COMMIT,
        "paths": ["results/timing/<folder>/baseline_time_torch.json (key level1)",
                  "results/timing/README.md", PROBLEM_DIR + "/*.py"],
        "licence": "MIT; Copyright (c) 2023 Anne Ouyang, Simon Guo, Azalia Mirhoseini, "
                   "Scaling Intelligence Lab, Stanford University",
        "torch": "2.5.0+cu124",
        "cuda": "12.4",
        "timing_method": "scripts/generate_baseline_time.py: inputs from get_inputs() after "
                         "seed 42, moved to cuda:0, model in default (training) mode under "
                         "torch.no_grad(); 3 warm-up calls each followed by synchronize; 100 "
                         "trials, each CUDA event record, call, event record, synchronize; "
                         "mean/std (population)/min/max in ms rounded to 3 significant digits",
        "problems": stems,
    }
    gpus = {key: gpu_entry(mirror, folder, stems, only) for key, folder, only in GPU_FOLDERS}
    return {"source": source, "gpus": gpus}


def render(document):
    """Deterministic text: fixed key order, two-space indent, one trailing newline."""
    return json.dumps(document, indent=2, ensure_ascii=True) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", default=DEFAULT_MIRROR,
                        help="git directory of ScalingIntelligence/KernelBench")
    parser.add_argument("--out", default=DEFAULT_OUT, help="the JSON file to write or check")
    parser.add_argument("--check", action="store_true",
                        help="compare with --out instead of writing; exit 1 if they differ")
    args = parser.parse_args()
    if not os.path.isdir(args.mirror):
        sys.exit(f"kernelbench_import: no git directory at {args.mirror}")
    text = render(build(args.mirror))
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            same = f.read() == text
        print(f"kernelbench_import: {args.out} {'matches' if same else 'DIFFERS from'} "
              f"{REPO}@{COMMIT[:12]}")
        return 0 if same else 1
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.out)
    print(f"kernelbench_import: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
