#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes tests/gpu/expected.json: the known answers of the apps in tests/gpu/apps (irf-demo: demo.cu).
# The arithmetic lives here, next to each kernel's description, so every number is derived
# rather than typed; run it after changing an app's sizes and commit both files.
# usage: expected_gen.py [--out PATH]   (default: expected.json beside this script)
import json
import os
import sys

SECTOR = 32
WARP = 32
TIGHT = 0.01  # instruction and sector counts: within 1% (issue 7)
# Every app launches each kernel this often (k_launches in apps/ka_common.cuh, which demo.cu uses too).
LAUNCHES = 3
# Warp instructions a warp may spend beyond the counted ones (index and address arithmetic,
# loop control, EXIT): a bound from the sources. The H100 recording's SASS (nvcc 13.0, sm_90,
# tests/data/gpu/h100/sass/) stays within it once the work the counts leave out is passed as
# `uncounted` (mma: a NOP after each HMMA); docs/validation/h100-known-answers.md.
OVERHEAD_PER_WARP = 48
# Where the H100 recording settled an expectation (docs/validation/h100-known-answers.md).
RECORDING = "tests/data/gpu/h100"
WARP_COUNTED = ("inst_global_ld", "inst_global_st", "inst_shared_ld", "inst_shared_st",
                "inst_local_ld", "inst_local_st", "inst_tensor")


def instruction_bounds(counts, grid, block, fp_lane_share, uncounted=(0, 0)):
    """[lo, hi] a launch for inst_warp and inst_thread (the Instruction Roofline's inputs).

    lo counts what the source fixes: the memory and tensor instructions, the FP thread
    instructions as warp instructions (fp_lane_share: the lanes of a warp that run them), one EXIT
    a warp and a thread. hi allows twice that plus OVERHEAD_PER_WARP a warp; a thread count is
    at most 32 times the warp count. uncounted: (min, max) warp instructions a warp runs that no
    counter of `counts` covers (integer work). A factor-32 mix-up of warp and thread counts, or a
    count per SM instead of the whole GPU, falls outside."""
    warps = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2] // WARP
    thread_fp = sum(v for k, v in counts.items() if k.startswith("thread_"))
    counted = warps + sum(counts.get(k, 0) for k in WARP_COUNTED) + round(
        thread_fp / (WARP * fp_lane_share))
    warp_lo = counted + uncounted[0] * warps
    warp_hi = 2 * counted + (uncounted[1] + OVERHEAD_PER_WARP) * warps
    return {"inst_warp": {"min": warp_lo, "max": warp_hi},
            "inst_thread": {"min": thread_fp + WARP * warps * (1 + uncounted[0]),
                            "max": WARP * warp_hi}}


def global_sectors(stride, word_bytes):
    """Sectors one warp load touches when lane l reads word l * stride (aligned base)."""
    if stride == 0:
        return 1
    return min(WARP, stride * word_bytes * WARP // SECTOR)


# The global wall each access pattern sits on, stated from the access rather than computed (a
# copy of model/roofline/walls.cpp here would agree with the model whatever its rules said; the numbers
# behind each name are worked out in tests/gpu/test_expected_vs_model.cpp). Stride app: lane l
# reads word l x stride. Stride 0 is one sector a load (stride-0); stride 1 reads exactly the
# requested bytes (unit); stride 2 and 4 (fp32) or 2 (fp64) touch 2-4x the sectors (strided);
# from 32 B between lanes (fp32 stride 8, fp64 stride 4) every lane has its own sector (gather).
STRIDE_PATTERN = {("fp32", 0): "stride-0", ("fp32", 1): "unit", ("fp32", 2): "strided",
                  ("fp32", 4): "strided", ("fp32", 8): "gather", ("fp32", 32): "gather",
                  ("fp64", 0): "stride-0", ("fp64", 1): "unit", ("fp64", 2): "strided",
                  ("fp64", 4): "gather", ("fp64", 8): "gather", ("fp64", 32): "gather"}
# Transposes: the naive one stores a column (4096 B between lanes, 8x the sectors of its
# requested bytes: strided, short of gather); the tiled and padded ones are unit both ways.
TRANSPOSE_PATTERN = {"naive": "strided", "tiled": "unit", "padded": "unit"}


def case(case_id, app, args, kernel, grid, block, why, counts, verdict, fp_lane_share=1.0,
         uncounted=(0, 0), **extra):
    out = {"id": case_id, "app": app, "args": args, "kernel": kernel,
           "launch": {"grid": grid, "block": block}, "launches": LAUNCHES, "why": why,
           "counts": counts, "tolerance": TIGHT,
           "instructions": instruction_bounds(counts, grid, block, fp_lane_share, uncounted),
           "verdict": verdict}
    out.update(extra)
    return out


def global_verdict(c, stated_pattern):
    """The global wall of counts `c`: its intensity, and the pattern stated for the access."""
    inst = c["inst_global_ld"] + c["inst_global_st"]
    g = inst / (c["sectors_global_ld"] + c["sectors_global_st"])
    return {"global_intensity": g, "global_pattern": stated_pattern}


# The stride kernels' SASS (RECORDING/sass/irf-ka-stride.sass): straight-line code, `all` warp
# instructions run by all 32 lanes up to and including `@P0 EXIT` (P0: lane != 0, so 31 lanes
# run that one), then `tail` instructions by lane 0 alone (the output address, the last FADD or
# DADD of the shuffle reduction, STG, EXIT). At stride 0 every lane loads the same words, so
# nvcc folds the five SHFL.DOWN + FADD into FADD x, x, x (doubling) and moves four of them
# behind the EXIT: a shorter body and a longer tail.
STRIDE_SASS = {("fp32", 0): (27, 13), ("fp32", 1): (37, 10), ("fp32", 2): (37, 10),
               ("fp32", 4): (37, 10), ("fp32", 8): (37, 10), ("fp32", 32): (41, 10),
               ("fp64", 0): (29, 11), ("fp64", 1): (42, 10), ("fp64", 2): (42, 10),
               ("fp64", 4): (42, 10), ("fp64", 8): (44, 10), ("fp64", 32): (50, 10)}
# Accepted distance from the SASS's predication: about one tail instruction more or less.
PREDICATION_SLACK = 0.02


def stride_predication(all_lanes, tail):
    """inst_thread / (32 x inst_warp) of a warp running STRIDE_SASS's (all, tail) instructions."""
    return (WARP * all_lanes - 1 + tail) / (WARP * (all_lanes + tail))


def stride_cases():
    threads, loads = 128 * 256, 8
    warps = threads // WARP
    cases = []
    for tname, ctype, wb in (("fp32", "float", 4), ("fp64", "double", 8)):
        for s in (0, 1, 2, 4, 8, 32):
            spr = global_sectors(s, wb)
            # Requested bytes count each distinct address of a warp access once: at stride 0 a
            # load's 32 lanes read one word, counted once (the H100 recording, RECORDING/ncu/
            # stride-fp32-s0.csv and stride-fp64-s0.csv: smsp__sass_data_bytes_mem_global_op_ld
            # 32768 and 65536 B, 1/32 of 32 lanes x word).
            lanes = 1 if s == 0 else WARP
            c = {"inst_global_ld": warps * loads, "sectors_global_ld": warps * loads * spr,
                 "inst_global_st": warps, "sectors_global_st": warps,
                 "bytes_global_ld": warps * loads * lanes * wb, "bytes_global_st": warps * wb,
                 "inst_shared_ld": 0, "inst_shared_st": 0, "inst_local_ld": 0,
                 "inst_local_st": 0}
            v = global_verdict(c, STRIDE_PATTERN[(tname, s)])
            p = stride_predication(*STRIDE_SASS[(tname, s)])
            v["predication"] = [round(p - PREDICATION_SLACK, 4), round(p + PREDICATION_SLACK, 4)]
            why = (f"{warps} warps x {loads} loads; lanes {s} words of {wb} B apart -> {spr} "
                   f"sector(s) a load; lane 0 stores the warp's sum (1 sector)")
            cases.append(case(f"stride-{tname}-s{s}", "irf-ka-stride", [f"{tname}-s{s}"],
                              f"stride_load<{ctype}, {s}>", [128, 1, 1], [256, 1, 1], why, c, v))
    return cases


# The bank kernels' SASS (RECORDING/sass/irf-ka-bank.sass): nvcc merges pairs of the 64 loads
# into one LDS.64. Load r + 31 reads word (lane K + 33 r + 1023) mod 1024, the word just before
# load r's, and the compiler pairs them where it can prove that for every lane (lane <= 31): both
# words 8-byte aligned (K even, r odd) and no wrap between them (33 r + 31 K < 1025). That is
# odd r up to 29, 27, 23 and 15 for K = 2, 4, 8, 16, and none at K = 1 (odd words) or 32, which
# is what the SASS holds: LDS + LDS.64 = 34 + 15, 36 + 14, 40 + 12, 48 + 8, 64 + 0, 64 + 0.
BANK_LDS64 = {1: 0, 2: 15, 4: 14, 8: 12, 16: 8, 32: 0}


def bank_cases():
    blocks, block, stores, loads = 128, 256, 4, 64
    warps = blocks * block // WARP
    cases = []
    for k in (1, 2, 4, 8, 16, 32):
        lds = loads - BANK_LDS64[k]  # warp load instructions: LDS and LDS.64
        # Every load instruction, LDS or LDS.64, takes k wavefronts (the H100 recording); its
        # ideal is its bytes / 128: 1 for an LDS, 2 for an LDS.64 (256 B). The bytes are the
        # 64 words a thread reads however they are merged.
        c = {"inst_shared_st": warps * stores, "wavefronts_shared_st": warps * stores,
             "inst_shared_ld": warps * lds, "wavefronts_shared_ld": warps * lds * k,
             "bytes_shared_st": warps * stores * WARP * 4, "bytes_shared_ld": warps * loads * WARP * 4,
             "inst_global_ld": 0, "inst_global_st": warps, "sectors_global_st": warps * 4,
             "thread_fadd": warps * WARP * loads}
        ideal = (c["bytes_shared_ld"] + c["bytes_shared_st"]) / 128
        ways = (c["wavefronts_shared_ld"] + c["wavefronts_shared_st"]) / ideal
        v = {"shared_conflict_ways": ways, "predication": [0.99, 1.0]}
        why = (f"{warps} warps; {stores} conflict-free shared stores and {loads} loads a warp in "
               f"{lds} instructions ({BANK_LDS64[k]} LDS.64), each {k} wavefronts; ways = "
               f"wavefronts / ideal wavefronts (bytes / 128) over ld+st = {ways:.3f}; one FADD "
               f"a load")
        cases.append(case(f"bank-ways{k}", "irf-ka-bank", [f"ways{k}"], f"bank_conflict<{k}>",
                          [blocks, 1, 1], [block, 1, 1], why, c, v))
    return cases


def transpose_cases(app="irf-ka-transpose", variants=("naive", "tiled", "padded"), args=True):
    warps = 32 * 32 * 8  # grid 32x32 blocks of 32x8 threads
    per = 4              # each warp moves 4 rows of its tile
    cases = []
    for var in variants:
        c = {"inst_global_ld": warps * per, "sectors_global_ld": warps * per * 4,
             "inst_global_st": warps * per, "bytes_global_ld": warps * per * WARP * 4,
             "bytes_global_st": warps * per * WARP * 4}
        v = {"predication": [0.99, 1.0]}
        if var == "naive":
            c["sectors_global_st"] = warps * per * 32
            c["inst_shared_ld"] = 0
            c["inst_shared_st"] = 0
            why = "coalesced loads (4 sectors), stores 4096 B apart a lane (32 sectors)"
        else:
            c["sectors_global_st"] = warps * per * 4
            c["inst_shared_st"] = warps * per
            c["wavefronts_shared_st"] = warps * per
            c["inst_shared_ld"] = warps * per
            c["bytes_shared_st"] = warps * per * WARP * 4
            c["bytes_shared_ld"] = warps * per * WARP * 4
            ld_ways = 32 if var == "tiled" else 1
            c["wavefronts_shared_ld"] = warps * per * ld_ways
            v["shared_conflict_ways"] = (c["wavefronts_shared_ld"] + c["wavefronts_shared_st"]) / (
                c["inst_shared_ld"] + c["inst_shared_st"])
            why = (f"unit-stride global ld/st (4 sectors); shared row stores conflict-free, column "
                   f"loads {ld_ways}-way at row pitch {32 if var == 'tiled' else 33}")
        v.update(global_verdict(c, TRANSPOSE_PATTERN[var]))
        kernel = {"naive": "transpose_naive", "tiled": "transpose_tiled",
                  "padded": "transpose_padded"}[var]
        cases.append(case(f"transpose-{var}" if args else f"demo-{kernel}", app,
                          [var] if args else [], kernel, [32, 32, 1], [32, 8, 1], why, c, v))
    return cases


def branch_cases():
    threads, fmas = 256 * 256, 1024
    return [
        case("branch-half", "irf-ka-branch", ["branch"], "branch_half", [256, 1, 1],
             [256, 1, 1], f"even lanes run {fmas} FMAs, odd lanes idle: half the thread slots",
             {"thread_ffma": threads // 2 * fmas, "inst_global_ld": 0,
              "inst_global_st": threads // WARP},
             {"predication": [0.49, 0.56]}, fp_lane_share=0.5),
        case("branch-select", "irf-ka-branch", ["select"], "select_half", [256, 1, 1],
             [256, 1, 1], f"every lane runs {fmas} FMAs, bitwise select: no predication",
             {"thread_ffma": threads * fmas, "inst_global_ld": 0,
              "inst_global_st": threads // WARP},
             {"predication": [0.99, 1.0]}),
    ]


def bound_cases():
    n = 1 << 25
    w = n // WARP
    triad = case(
        "stream-triad", "irf-ka-bound", ["triad"], "stream_triad", [n // 256, 1, 1],
        [256, 1, 1], "2^25 floats: 2 unit loads + 1 unit store a warp (4 sectors each), 1 FFMA a "
        "thread; 384 MiB streamed, far beyond L2",
        {"inst_global_ld": 2 * w, "sectors_global_ld": 8 * w, "inst_global_st": w,
         "sectors_global_st": 4 * w, "bytes_global_ld": 2 * n * 4, "bytes_global_st": n * 4,
         "thread_ffma": n, "thread_fadd": 0, "thread_fmul": 0},
        {"global_pattern": "unit", "global_intensity": 0.25, "bound": ["hbm"],
         "predication": [0.99, 1.0]},
        approx={"dram_sectors_read": {"value": 8 * w, "min_ratio": 0.75, "max_ratio": 1.05},
                "l2_sectors_read": {"value": 8 * w, "min_ratio": 0.98, "max_ratio": 1.05}})
    threads = 1024 * 256
    fma = case(
        "fma-chains", "irf-ka-bound", ["fma"], "fma_chains", [1024, 1, 1], [256, 1, 1],
        "8 chains x 512 FFMA a thread, 7 FADD to combine, one store",
        {"thread_ffma": threads * 4096, "thread_fadd": threads * 7, "thread_fmul": 0,
         "inst_global_ld": 0, "inst_global_st": threads // WARP},
        {"bound": ["issue"], "predication": [0.99, 1.0]})
    return [triad, fma]


def other_cases():
    threads = 512 * 128
    sw = case(
        "sw-integer", "irf-ka-sw", ["sw"], "sw_align", [512, 1, 1], [128, 1, 1],
        "32x32 DP cells a thread in registers, integer only: no FP, no loads, one store",
        {"thread_ffma": 0, "thread_fadd": 0, "thread_fmul": 0, "thread_dfma": 0,
         "thread_dadd": 0, "thread_dmul": 0, "inst_global_ld": 0, "inst_local_ld": 0,
         "inst_local_st": 0, "inst_shared_ld": 0, "inst_global_st": threads // WARP},
        {"bound": ["issue"], "predication": [0.95, 1.0], "mix_integer_min": 0.6},
        # each of the 32x32 cells: a compare, a select, an add and three max at least (6), at
        # most twice that with the 2-bit base extraction
        uncounted=(6 * 32 * 32, 12 * 32 * 32), env={"IRF_METRICS": "pipe_mix"})
    warps = 512 * 128 // WARP
    mma = case(
        "mma-f16", "irf-ka-mma", ["mma"], "mma_f16_f32", [512, 1, 1], [128, 1, 1],
        "1024 mma.sync m16n8k16 a warp: one HMMA each on cc >= 8.0; 4 stores a thread",
        {"inst_tensor": warps * 1024, "inst_global_ld": 0, "inst_global_st": warps * 4,
         "thread_ffma": 0},
        {"predication": [0.99, 1.0]}, min_cc="8.0",
        # The SASS (RECORDING/sass/irf-ka-mma.sass) unrolls the loop 16 times and puts a NOP
        # after each HMMA (dependent HMMAs on sm_90): 16 HMMA + 16 NOP + 7 loop instructions,
        # 64 times, 2549 warp instructions a warp in all. At most a NOP an HMMA and 8 loop
        # instructions per 16; none on a GPU that needs no NOP.
        uncounted=(0, 1024 + 1024 // 16 * 8))
    return [sw, mma]


def demo_cases():
    cases = transpose_cases("irf-demo", ("naive", "padded"), args=False)
    threads = 1 << 16
    cases.append(case("demo-fma_chain", "irf-demo", [], "fma_chain", [256, 1, 1], [256, 1, 1],
                      "256 dependent FFMA a thread", {"thread_ffma": threads * 256},
                      {"bound": ["issue"], "predication": [0.99, 1.0]}))
    return cases


def main():
    doc = {
        "schema": "irf.gpu-expected/v1",
        "about": "Known answers of tests/gpu/apps and irf-demo. counts are per launch (the "
                 "profile's counters divided by profiled_launches), within `tolerance` "
                 "(relative; a count of 0 must be exactly 0). verdict keys: global_pattern "
                 "and global_intensity (analysis.walls.global), shared_conflict_ways "
                 "(analysis.walls.shared.conflict_ways, within 3%), predication [min, max], "
                 "bound (any of), mix_integer_min (analysis.mix.integer, from the SASS "
                 "instruction classes of the default set). launches: the kernel's launch count. "
                 "instructions: inst_warp and inst_thread a launch within [min, max], bounds "
                 "from the source (expected_gen.py: instruction_bounds). env: set for the run. "
                 "approx: value with an accepted ratio range (cache-dependent). min_cc: the "
                 "counts hold from this compute capability. Generated by expected_gen.py.",
        "cases": stride_cases() + bank_cases() + transpose_cases() + branch_cases() +
                 bound_cases() + other_cases() + demo_cases(),
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected.json")
    if len(sys.argv) == 3 and sys.argv[1] == "--out":
        path = sys.argv[2]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
