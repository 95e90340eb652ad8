#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The FP32 GEMM rate a GPU sustains (issue 54; docs/validation/projection.md, "Next step found:
the power-capped inference cards"): square `torch.matmul` in FP32 with TF32 off, at sizes from
256 to 6888 growing by about 19% each, each timed over `--repeat` calls after a warm-up. Prints one
line per size and writes, with --json, every size's TFLOPS and the best, the figure a ceilings
entry carries as its measured FP32 GEMM rate (2 n^3 flop per matmul).

Run on the source GPU of a projection (H100, H200) so that published rates of other cards,
measured the same way, can be compared like with like (docs/model.md, "Measured maxima").
"""
import argparse
import json
import sys

FIRST, LAST, PER_OCTAVE = 256, 6888, 4  # sizes: 256 x 2^(k/4), rounded down, up to LAST


def sizes(first=FIRST, last=LAST, per_octave=PER_OCTAVE):
    """The square sizes of the sweep: first x 2^(k / per_octave) rounded down (an exact power of
    two stays itself), while at most `last`."""
    out, k = [], 0
    while True:
        n = int(first * 2 ** (k / per_octave) + 1e-9)
        if n > last:
            return out
        out.append(n)
        k += 1


def tflops(n, seconds):
    """The rate of one n x n x n matmul that took `seconds`: 2 n^3 flop / seconds / 1e12."""
    if seconds <= 0:
        raise ValueError(f"matmul of {n}: a time of {seconds} s")
    return 2.0 * n ** 3 / seconds / 1e12


def best(rates):
    """(size, TFLOPS) of the highest rate in {size: TFLOPS}."""
    if not rates:
        raise ValueError("no size was timed")
    size = max(rates, key=lambda n: (rates[n], -n))
    return size, rates[size]


def measure(n, repeat):
    """Seconds per FP32 matmul of size n: CUDA events around `repeat` calls after two."""
    import torch  # here: the helpers above are tested without torch

    a = torch.randn(n, n, device="cuda", dtype=torch.float32)
    b = torch.randn(n, n, device="cuda", dtype=torch.float32)
    for _ in range(2):
        torch.matmul(a, b)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeat):
        torch.matmul(a, b)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / 1000.0 / repeat


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="timed calls per size")
    parser.add_argument("--json", help="write the sizes' TFLOPS and the best here")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    import torch

    if not torch.cuda.is_available():
        print("fp32_matmul_sweep: no CUDA device", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False  # FP32 on the CUDA cores, as published
    rates = {}
    for n in sizes():
        rates[n] = tflops(n, measure(n, args.repeat))
        print(f"{n} {rates[n]:.2f} TFLOPS", flush=True)
    size, rate = best(rates)
    print(f"best {rate:.2f} TFLOPS at {size}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"device": torch.cuda.get_device_name(), "repeat": args.repeat,
                       "tflops": {str(n): r for n, r in rates.items()},
                       "best": {"size": size, "tflops": rate}}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
