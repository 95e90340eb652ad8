#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""KernelBench's 100 level-1 operators timed in eager PyTorch (issue 57's projection check).

For each problem of kernelbench_ops.PROBLEMS (or those whose stem matches --only): build the
operator and its inputs on the GPU (seed 42), warm up --warmup times outside any NVTX range, then
time --iters calls, each in an NVTX range named after the problem's stem, with CUDA events the way
KernelBench's published times were taken (record start, call, record end, synchronize), under
torch.no_grad() with TF32 off for matmul and on for cuDNN (PyTorch 2.5's defaults) and
cudnn.benchmark off. One line per problem on stdout:
  operator: {"name", "iters", "mean_ms", "median_ms", "min_ms", "std_ms"}
or, when it fails (out of memory, any error), `operator-failed: {"name", "error"}` and the run goes
on; the exit code is then 1. Without torch or a CUDA device it prints one line and exits 77.
--json FILE writes every result (with each iteration's time), the torch and CUDA versions and the
device to FILE at the end (a temporary file renamed, so a reader never sees half of it).
--list prints the table's stems and input shapes (no torch needed).
"""
import argparse
import gc
import json
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import kernelbench_ops  # noqa: E402

DEVICE = "cuda"
SEED = 42


def configure(torch):
    """The math settings KernelBench's times were taken with (PyTorch 2.5's defaults), explicit."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = True
    torch.backends.cudnn.benchmark = False


def time_problem(torch, problem, iters, warmup):
    """The problem's CUDA-event times in ms, one per iteration."""
    op, inputs = kernelbench_ops.build(problem, DEVICE, SEED)
    torch.cuda.synchronize()
    for _ in range(warmup):
        op(*inputs)
        torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        torch.cuda.nvtx.range_push(problem.stem)
        try:
            start.record()
            op(*inputs)
            end.record()
        finally:  # a failed call must not leave later problems nested inside this range
            torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return times


def summary(name, times):
    """The line's fields: mean, median, min and population standard deviation (as numpy's std)."""
    return {"name": name, "iters": len(times), "mean_ms": statistics.fmean(times),
            "median_ms": statistics.median(times), "min_ms": min(times),
            "std_ms": statistics.pstdev(times)}


def free_memory(torch):
    """Returns the cached blocks of the problem just run, so the next one starts with all memory."""
    gc.collect()
    try:
        torch.cuda.empty_cache()
    except Exception as error:  # a broken context: the next problem will report it
        print(f"operators: empty_cache failed: {error}", file=sys.stderr)


def run_one(torch, problem, iters, warmup):
    """(times, None) or (None, error text); the caller frees the memory it used."""
    try:
        with torch.no_grad():
            return time_problem(torch, problem, iters, warmup), None
    except Exception as error:  # one failed problem must not stop the run (OOM, CUDA errors)
        text = str(error).strip()
        return None, f"{type(error).__name__}: {text.splitlines()[0] if text else ''}"


def write_json_atomic(path, document):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def environment(torch):
    """Versions and device the results were taken on."""
    props = torch.cuda.get_device_properties(0)
    return {"torch": torch.__version__, "cuda": torch.version.cuda,
            "cudnn": torch.backends.cudnn.version(), "device": torch.cuda.get_device_name(0),
            "sms": props.multi_processor_count, "memory_bytes": props.total_memory,
            "allow_tf32_matmul": torch.backends.cuda.matmul.allow_tf32,
            "allow_tf32_cudnn": torch.backends.cudnn.allow_tf32}


def load_torch():
    """torch, or None with the reason there is no CUDA device to run on."""
    try:
        import torch
    except ImportError as error:
        return None, f"torch is not importable ({error})"
    if not torch.cuda.is_available():
        return None, "torch.cuda.is_available() is False"
    return torch, ""


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="regular expression: time matching stems only")
    parser.add_argument("--iters", type=int, default=10, help="timed calls per problem")
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls before them")
    parser.add_argument("--json", default="", help="write all results to this file at the end")
    parser.add_argument("--list", action="store_true", help="print the selected problems, exit")
    args = parser.parse_args(argv)
    if args.iters < 1 or args.warmup < 0:
        parser.error("--iters must be at least 1 and --warmup at least 0")
    try:
        pattern = re.compile(args.only)
    except re.error as error:
        parser.error(f"--only {args.only!r} is not a regular expression: {error}")
    args.problems = [p for p in kernelbench_ops.PROBLEMS if pattern.search(p.stem)]
    if not args.problems:
        parser.error(f"--only {args.only!r} matches none of the {len(kernelbench_ops.PROBLEMS)} "
                     "problems")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.list:
        for p in args.problems:
            shapes = [list(s.shape) if s.fill != "scalar" else s.value for s in p.inputs]
            print(p.stem, json.dumps(shapes))
        return 0
    torch, reason = load_torch()
    if torch is None:
        print(f"operators: no CUDA device: {reason}", flush=True)
        return 77
    configure(torch)
    env = environment(torch)  # before any problem: a broken context later must not lose it
    started = time.monotonic()
    results, failures, all_times = [], [], {}
    for problem in args.problems:
        times, error = run_one(torch, problem, args.iters, args.warmup)
        free_memory(torch)  # after run_one returned: no frame holds its tensors any more
        if times is not None:
            result = summary(problem.stem, times)
            results.append(result)
            all_times[problem.stem] = times
            print("operator:", json.dumps(result), flush=True)
        else:
            failures.append({"name": problem.stem, "error": error})
            print("operator-failed:", json.dumps(failures[-1]), flush=True)
    seconds = time.monotonic() - started
    print(f"operators: {len(results)} timed, {len(failures)} failed, {seconds:.1f} s", flush=True)
    if args.json:
        document = {"environment": env, "only": args.only, "iters": args.iters,
                    "warmup": args.warmup, "seed": SEED, "seconds": seconds,
                    "results": [dict(r, times_ms=all_times[r["name"]]) for r in results],
                    "failures": failures}
        write_json_atomic(args.json, document)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
