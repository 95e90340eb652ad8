# SPDX-License-Identifier: Apache-2.0
"""A small GPT-like training step, the PyTorch job of the GPU validation (issues 36 and 37).

One process runs, in order:
  eager   STEPS training steps under torch.autograd.profiler.emit_nvtx, each in an NVTX range
          "train_step" (the regions irf must show);
  graph   the same step captured whole into a CUDA graph and replayed STEPS times, each replay
          in an NVTX range "graph_step" (graph kernels are timed under their launch's region);
  launch  LAUNCHES tiny kernels (x.add_(1)) back to back: irf's cost per launch;
  compile (with --compile) the step under torch.compile(mode="reduce-overhead").
Each mode's median step time (CUDA events), its median CPU time on the launching thread and
every step's time go into one JSON line on stdout, prefixed
"train_step:". The script checks itself: finite, falling loss, and the launch loop's sum; on a
failure it prints FAIL and exits 1. Without a GPU it prints one line and exits 77.
"""
import argparse
import json
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    """Pre-norm transformer block: causal attention and a GELU MLP."""

    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(c, dim=2)
        q, k, v = (y.view(b, t, self.heads, c // self.heads).transpose(1, 2) for y in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
        return x + self.down(F.gelu(self.up(self.norm2(x))))


class TinyGpt(nn.Module):
    def __init__(self, vocab, width, heads, layers, seq):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.position = nn.Parameter(torch.zeros(1, seq, width))
        self.blocks = nn.Sequential(*[Block(width, heads) for _ in range(layers)])
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, tokens):
        return self.head(self.norm(self.blocks(self.embed(tokens) + self.position)))


def timed_runs(step, count, range_name):
    """Runs step() count times, each in an NVTX range: per run, the GPU time in ms (CUDA events)
    and the launching thread's CPU time in ms (CUPTI's callbacks run on that thread, so this is
    where irf's per-launch cost shows when the GPU hides it)."""
    times, cpu = [], []
    for _ in range(count):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        cpu_start = time.thread_time_ns()
        torch.cuda.nvtx.range_push(range_name)
        start.record()
        step()
        end.record()
        torch.cuda.nvtx.range_pop()
        cpu.append((time.thread_time_ns() - cpu_start) / 1e6)
        end.synchronize()
        times.append(start.elapsed_time(end))
    return times, cpu


def record_runs(result, key, step, count, range_name):
    """result[key + "_ms"] the median GPU time, key + "_cpu_ms" the median thread CPU time, and
    key + "_all_ms" every run's GPU time (a sample's steps stand out from the steady ones)."""
    times, cpu = timed_runs(step, count, range_name)
    result[key + "_ms"] = statistics.median(times)
    result[key + "_cpu_ms"] = statistics.median(cpu)
    result[key + "_all_ms"] = [round(t, 3) for t in times]


def make_step(model, optimizer, tokens, targets, losses):
    def step():
        optimizer.zero_grad(set_to_none=False)
        with torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False):
            logits = model(tokens)
        loss = F.cross_entropy(logits.float().flatten(0, 1), targets.flatten())
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())

    return step


def graph_step(step, steps_warm):
    """The step captured whole into a CUDA graph (after warm-up on a side stream)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(steps_warm):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step()
    return graph.replay


def launch_loop(count):
    """count tiny kernels: GPU microseconds a launch, the launching thread's CPU microseconds a
    launch, and whether the sum came out right."""
    x = torch.zeros(1, device="cuda", dtype=torch.float64)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    cpu_start = time.thread_time_ns()
    start.record()
    for _ in range(count):
        x.add_(1)
    end.record()
    cpu_us = (time.thread_time_ns() - cpu_start) / 1e3 / count
    end.synchronize()
    return start.elapsed_time(end) * 1000 / count, cpu_us, int(x.item()) == count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--launches", type=int, default=100000)
    parser.add_argument("--compile", action="store_true", help="also torch.compile's mode")
    parser.add_argument("--no-graph", action="store_true")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("train_step: no CUDA device: torch.cuda.is_available() is False")
        return 77
    torch.manual_seed(0)
    vocab, width, heads, layers, seq, batch = 8192, 512, 8, 4, 256, 16
    model = TinyGpt(vocab, width, heads, layers, seq).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, capturable=True)
    tokens = torch.randint(0, vocab, (batch, seq), device="cuda")
    targets = torch.roll(tokens, -1, dims=1)  # a learnable task: predict the next token
    losses = []
    step = make_step(model, optimizer, tokens, targets, losses)
    result = {"model": f"{layers} layers x {width} wide, {heads} heads, seq {seq}, batch {batch}"}
    step()  # warm-up: cuBLAS handles, autotuning
    torch.cuda.synchronize()
    with torch.autograd.profiler.emit_nvtx():
        record_runs(result, "eager", step, args.steps, "train_step")
    if not args.no_graph:
        replay = graph_step(step, 3)
        record_runs(result, "graph", replay, args.steps, "graph_step")
    if args.compile:
        compiled = torch.compile(model, mode="reduce-overhead")
        cstep = make_step(compiled, optimizer, tokens, targets, losses)
        for _ in range(3):
            cstep()
        record_runs(result, "compile", cstep, args.steps, "compiled_step")
    if args.launches > 0:
        result["launch_us"], result["launch_cpu_us"], sum_ok = launch_loop(args.launches)
    else:
        sum_ok = True
    values = [float(x) for x in losses]
    result["loss_first"], result["loss_last"] = values[0], values[-1]
    ok = sum_ok and all(v == v and abs(v) != float("inf") for v in values)
    ok = ok and values[-1] < values[0]
    print("train_step:", json.dumps(result), flush=True)
    if not ok:
        print("FAIL: loss not finite and falling, or the launch loop's sum is wrong")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
