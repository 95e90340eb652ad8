#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The projection's kernels (issue 37): BabelStream's five streams and cuBLAS GEMMs at three sizes.

Run on the GPU a profile is recorded on (under `irf run`, counters) and on the GPU it is projected
to (under `irf run --samples 0`, durations only); docs/validation/projection.md compares the two.
Each operation runs `--repeat` times after a warm-up, in an NVTX range named after it, and the
script prints each one's median time from CUDA events (a check on irf's activity durations).
The arrays (2^26 floats, 256 MiB each) are five times the H200's 60 MiB L2, so every stream
reads and writes HBM, as BabelStream's default size does on these GPUs.
"""
import argparse
import json
import statistics
import sys

import torch


def timed(name, op, repeat):
    """op() `repeat` times in an NVTX range; the median of its CUDA-event times in microseconds."""
    for _ in range(2):  # warm-up: cuBLAS handles and heuristics, first-launch module loading
        op()
    torch.cuda.synchronize()
    times = []
    torch.cuda.nvtx.range_push(name)
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        op()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000)
    torch.cuda.nvtx.range_pop()
    return statistics.median(times)


def streams(n, repeat):
    """BabelStream's copy, mul, add, triad and dot on float32 arrays of n elements."""
    a = torch.full((n,), 0.1, device="cuda")
    b = torch.full((n,), 0.2, device="cuda")
    c = torch.zeros(n, device="cuda")
    scalar = 0.4
    ops = {
        "copy": lambda: c.copy_(a),
        "mul": lambda: torch.mul(c, scalar, out=b),
        "add": lambda: torch.add(a, b, out=c),
        "triad": lambda: torch.add(b, c, alpha=scalar, out=a),
        "dot": lambda: torch.dot(a, b),
    }
    return {name: timed("stream_" + name, op, repeat) for name, op in ops.items()}


def gemms(sizes, repeat):
    """Square GEMMs: bf16 on the tensor cores at each size, and one fp32 (no TF32) on the FMA pipe."""
    torch.backends.cuda.matmul.allow_tf32 = False
    out = {}
    for size in sizes:
        x = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
        y = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
        out[f"gemm_bf16_{size}"] = timed(f"gemm_bf16_{size}", lambda: x @ y, repeat)
    size = sizes[len(sizes) // 2]
    x = torch.randn(size, size, device="cuda")
    y = torch.randn(size, size, device="cuda")
    out[f"gemm_fp32_{size}"] = timed(f"gemm_fp32_{size}", lambda: x @ y, repeat)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=1 << 26)
    parser.add_argument("--sizes", type=int, nargs=3, default=[1024, 4096, 8192])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("projection_kernels: no CUDA device: torch.cuda.is_available() is False")
        return 77
    result = {"gpu": torch.cuda.get_device_name(), "median_us": {}}
    result["median_us"].update(streams(args.elements, args.repeat))
    result["median_us"].update(gemms(args.sizes, args.repeat))
    print("projection_kernels:", json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
