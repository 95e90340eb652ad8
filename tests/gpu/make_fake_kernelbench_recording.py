#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the FAKE operator recording that the KernelBench check replays until an H100 records
the real one (issue 57): the H100 recording of tests/gpu/torch/projection_kernels.py
(tests/data/gpu/projection/h100/projection_kernels.json: real kernels, real counters, each range
entered 20 times) with its NVTX ranges renamed after KernelBench level-1 problems. The kernels
are not those problems' kernels, so the errors it gives mean nothing about the model; it exercises
the whole path (ranges summed per call, every published GPU's ceilings, the table, --expect).

usage: make_fake_kernelbench_recording.py [OUT]   (default: tests/data/fake/kernelbench/...)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "data", "gpu", "projection", "h100", "projection_kernels.json")
OUT = os.path.join(HERE, "..", "data", "fake", "kernelbench", "h100-operators-fake.json")
# projection_kernels.py's range -> the problem whose name it takes (stream_add's kernel also
# runs under stream_triad: one kernel under two operators, as elementwise kernels can be)
RENAME = {
    "gemm_fp32_4096": "1_Square_matrix_multiplication_",
    "gemm_bf16_8192": "2_Standard_matrix_multiplication_",
    "gemm_bf16_4096": "3_Batched_matrix_multiplication",
    "stream_dot": "4_Matrix_vector_multiplication_",
    "stream_mul": "5_Matrix_scalar_multiplication",
    "gemm_bf16_1024": "9_Tall_skinny_matrix_multiplication_",
    "stream_add": "19_ReLU",
    "stream_triad": "25_Swish",
}
CALLS = 20


def renamed(path):
    top, sep, rest = path.partition("/")
    return RENAME.get(top, top) + sep + rest


def main(argv):
    out = argv[1] if len(argv) > 1 else OUT
    with open(SOURCE, encoding="utf-8") as f:
        profile = json.load(f)
    for kernel in profile["kernels"]:
        for region in kernel.get("regions", []):
            region["path"] = renamed(region["path"])
    for region in profile.get("regions", []):
        region["path"] = renamed(region["path"])
    profile["app"] = "FAKE: projection_kernels.py's H100 recording, ranges renamed " \
                     "(tests/gpu/make_fake_kernelbench_recording.py)"
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(profile, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
