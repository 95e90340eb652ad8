# SPDX-License-Identifier: Apache-2.0
"""Our table of KernelBench's 100 level-1 problems (issue 57), in problem order.

Each entry (kernelbench_spec.Problem) names the problem by its published file stem, gives the
forward() inputs' shapes, dtypes and value kinds and the init arguments as KernelBench publishes
them (commit b5cc6a4b, KernelBench/level1/*.py), and makes the operator with our own code. The
published per-GPU times are tests/data/projection-public/kernelbench/published_level1.json.
Importing this module needs no torch; build() does.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import kernelbench_conv  # noqa: E402
import kernelbench_elementwise  # noqa: E402
import kernelbench_matmul  # noqa: E402
import kernelbench_reduce  # noqa: E402
import kernelbench_scan_loss  # noqa: E402
from kernelbench_spec import build, element_count  # noqa: E402,F401


def problem_number(stem):
    """The leading number of a stem: '54_conv_standard_3D__square_input__square_kernel' -> 54."""
    return int(stem.split("_", 1)[0])


PROBLEMS = sorted(
    kernelbench_matmul.PROBLEMS + kernelbench_elementwise.PROBLEMS + kernelbench_reduce.PROBLEMS
    + kernelbench_conv.PROBLEMS + kernelbench_scan_loss.PROBLEMS,
    key=lambda p: problem_number(p.stem))

BY_STEM = {p.stem: p for p in PROBLEMS}


def input_bytes(problem):
    """Bytes of the problem's tensor inputs (float32 and int64 are 4 and 8 bytes, bool 1)."""
    width = {"float32": 4, "int64": 8, "bool": 1}
    return sum(element_count(s) * width[s.dtype] for s in problem.inputs if s.fill != "scalar")
