# SPDX-License-Identifier: Apache-2.0
"""The GPUs scripts/gpu_entry.py writes (issue 54 items 2, 3 and 7): per-architecture rates per SM
per clock with their documents, and per product its identity, clocks and datasheet figures.

Figures marked (R) in a product's comment were recalled from the named NVIDIA document and not
re-read in this pass; check them before quoting. Sustained clocks cite a measurement where one
was found and otherwise derive from one of the same generation (method says how)."""

COMMON_COMMENT = [
    "Rule for every value below: `value` is the vendor figure recomputed as SMs x per-SM",
    "rate x clock where the vendor defines it that way (so the model compares like with",
    "like across GPUs). Tensor values are dense; clock_mhz is the clock the figure assumes.",
    "Written by scripts/gpu_entry.py from scripts/gpu_entry_specs.py: change the spec, not",
    "this file.",
]

PCIE = {
    3: (15.75, "PCI Express 3.0 x16: 8 GT/s x 16 lanes x 128/130 / 8"),
    4: (31.5, "PCI Express 4.0 x16: 16 GT/s x 16 lanes x 128/130 / 8"),
    5: (63.0, "PCI Express 5.0 x16: 32 GT/s x 16 lanes x 128/130 / 8"),
}


def limits(threads, blocks, shared_sm, shared_block, reserved, unit, regs_per_thread=255):
    return [("max_threads_per_sm", threads), ("max_warps_per_sm", threads // 32),
            ("max_blocks_per_sm", blocks), ("max_threads_per_block", 1024),
            ("registers_per_sm", 65536), ("max_registers_per_thread", regs_per_thread),
            ("register_alloc_unit", 256), ("shared_bytes_per_sm", shared_sm),
            ("shared_bytes_per_block", shared_block), ("shared_reserved_per_block", reserved),
            ("shared_alloc_unit", unit)]


# docs/ceilings.md, "SM limits" (3.0, 3.5, 5.2 and 6.1 for the validation-only Kepler, Maxwell and
# Pascal entries of the public replays). cc 3.0 allows 63 registers a thread. cc 10.3 and 12.0 are
# not in the guide's table: their rows come from the toolkit's occupancy calculator and CCCL's
# architecture traits (SM_LIMITS_SOURCE).
SM_LIMITS = {
    "3.0": limits(2048, 16, 49152, 49152, 0, 256, 63),
    "3.5": limits(2048, 16, 49152, 49152, 0, 256),
    "5.2": limits(2048, 32, 98304, 49152, 0, 256),
    "6.1": limits(2048, 32, 98304, 49152, 0, 256),
    "7.0": limits(2048, 32, 98304, 98304, 0, 256),
    "7.5": limits(1024, 16, 65536, 65536, 0, 256),
    "8.0": limits(2048, 32, 167936, 166912, 1024, 128),
    "8.6": limits(1536, 16, 102400, 101376, 1024, 128),
    "8.9": limits(1536, 24, 102400, 101376, 1024, 128),
    "9.0": limits(2048, 32, 233472, 232448, 1024, 128),
    "10.0": limits(2048, 32, 233472, 232448, 1024, 128),
    "10.3": limits(2048, 32, 233472, 232448, 1024, 128),
    "12.0": limits(1536, 24, 102400, 101376, 1024, 128),
}
GUIDE_LIMITS = "CUDA C++ Programming Guide, technical specifications per compute capability %s"
TOOLKIT_LIMITS = ("CUDA 13.0 toolkit include/cuda_occupancy.h (blocks per SM, shared memory sizes, "
                  "allocation units) and NVIDIA/cccl@004ad198 libcudacxx/include/cuda/__device/"
                  "arch_traits.h (threads per SM, per-block opt-in) for compute capability %s")
SM_LIMITS_SOURCE = {"10.3": TOOLKIT_LIMITS, "12.0": TOOLKIT_LIMITS}

THROUGHPUT = "CUDA C++ Programming Guide, arithmetic instruction throughput table"
WP = "NVIDIA %s architecture whitepaper, SM diagram; " + THROUGHPUT
L1_64 = ("cc 7.5/8.6/8.9 L1 load rate 64 B/clk/SM (16 LD/ST units x 4 B), measured with 4-byte "
         "loads on A40 and L40 (gpu-benches); not a vendor figure")
L1_128 = "32 LD/ST units x 4 B per clock per SM (docs/ceilings.md, LD/ST pipe)"
L2_GA100 = ("te42kyfo/gpu-benches@1c36d509:gpu-l2-cache (GA100 plateau 5480 GB/s at 108 SMs x "
            "1410 MHz = 35.99 B/clk/SM)")
L2_GH100 = ("te42kyfo/gpu-benches@1c36d509:gpu-l2-cache/h200.txt (GH100 plateau 10300 GB/s at "
            "132 SMs x 1980 MHz = 39.41 B/clk/SM; GB100 assumed equal until measured)")
L2_AD102 = ("te42kyfo/gpu-benches@1c36d509:gpu-l2-cache (AD102 plateau 5300 GB/s measured on an "
            "L40, 142 SMs x 2490 MHz = 14.99 B/clk/SM; other AD10x dies assumed equal)")

# Per SM per clock: pipes and datapaths in warp instructions, gflops in FMA flops.
ARCH = {
    "volta": dict(cc="7.0", pipes={"fp16": 2, "fp32": 2, "fp64": 1, "int32": 2, "lsu": 1},
                  gflops={"fp64": 64, "fp32": 128, "fp16": 256}, l1=128, l1_source=L1_128,
                  datapaths=[("fp32", 2), ("int32", 2), ("fp64", 1), ("fp16", 2), ("lsu", 1),
                             ("mufu", 0.5)]),
    "turing": dict(cc="7.5", pipes={"fp16": 2, "fp32": 2, "fp64": 0.0625, "int32": 2, "lsu": 0.5},
                   gflops={"fp64": 4, "fp32": 128, "fp16": 256}, l1=64, l1_source=L1_64,
                   datapaths=[("fp32", 2), ("int32", 2), ("fp64", 0.0625), ("fp16", 2),
                              ("lsu", 0.5), ("mufu", 0.5)]),
    "ga100": dict(cc="8.0", pipes={"fp16": 4, "fp32": 2, "fp64": 1, "int32": 2, "lsu": 1},
                  gflops={"fp64": 64, "fp32": 128, "fp16": 512}, l1=128, l1_source=L1_128,
                  l2=(35.99, L2_GA100),
                  datapaths=[("fp32", 2), ("int32", 2), ("fp64", 1), ("fp16", 4), ("lsu", 1),
                             ("mufu", 0.5)]),
    "ga10x": dict(cc="8.6", pipes={"fp16": 2, "fp32": 4, "fp64": 0.0625, "int32": 2, "lsu": 0.5},
                  gflops={"fp64": 4, "fp32": 256, "fp16": 256}, l1=64, l1_source=L1_64,
                  datapaths=[("fp32_or_fp16", 2), ("fp32_or_int32", 2), ("fp64", 0.0625),
                             ("lsu", 0.5), ("mufu", 0.5)]),
    "ada": dict(cc="8.9", pipes={"fp16": 2, "fp32": 4, "fp64": 0.0625, "int32": 2, "lsu": 0.5},
                gflops={"fp64": 4, "fp32": 256, "fp16": 256}, l1=64, l1_source=L1_64,
                l2=(14.99, L2_AD102),
                datapaths=[("fp32_or_fp16", 2), ("fp32_or_int32", 2), ("fp64", 0.0625),
                           ("lsu", 0.5), ("mufu", 0.5)]),
    "hopper": dict(cc="9.0", pipes={"fp16": 4, "fp32": 4, "fp64": 2, "int32": 2, "lsu": 1},
                   gflops={"fp64": 128, "fp32": 256, "fp16": 512}, l1=128, l1_source=L1_128,
                   l2=(39.41, L2_GH100),
                   datapaths=[("fp32", 4), ("int32", 2), ("fp64", 2), ("fp16", 4), ("lsu", 1),
                              ("mufu", 0.5)]),
    # H800 and H20: GH100 with FP64 cut to about 1 TFLOPS (export parts; R).
    "hopper_export": dict(cc="9.0", pipes={"fp16": 4, "fp32": 4, "fp64": 0.0625, "int32": 2,
                                           "lsu": 1},
                          gflops={"fp64": 4, "fp32": 256, "fp16": 512}, l1=128, l1_source=L1_128,
                          l2=(39.41, L2_GH100),
                          datapaths=[("fp32", 4), ("int32", 2), ("fp64", 0.0625), ("fp16", 4),
                                     ("lsu", 1), ("mufu", 0.5)]),
    "blackwell": dict(cc="10.0", pipes={"fp16": 4, "fp32": 4, "fp64": 2, "int32": 2, "lsu": 1},
                      gflops={"fp64": 128, "fp32": 256, "fp16": 512}, l1=128, l1_source=L1_128,
                      l2=(39.41, L2_GH100),
                      datapaths=[("fp32", 4), ("int32", 2), ("fp64", 2), ("fp16", 4), ("lsu", 1),
                                 ("mufu", 0.5)]),
    "blackwell_ultra": dict(cc="10.3", pipes={"fp16": 4, "fp32": 4, "fp64": 0.0625, "int32": 2,
                                              "lsu": 1},
                            gflops={"fp64": 4, "fp32": 256, "fp16": 512}, l1=128,
                            l1_source=L1_128, l2=(39.41, L2_GH100),
                            datapaths=[("fp32", 4), ("int32", 2), ("fp64", 0.0625), ("fp16", 4),
                                       ("lsu", 1), ("mufu", 0.5)]),
    # GB20x: every CUDA core runs FP32 or INT32 (RTX Blackwell whitepaper, 2025); HFMA2 at the
    # GA10x rate on half of them.
    "blackwell_rtx": dict(cc="12.0", pipes={"fp16": 2, "fp32": 4, "fp64": 0.0625, "int32": 4,
                                            "lsu": 0.5},
                          gflops={"fp64": 4, "fp32": 256, "fp16": 256}, l1=64, l1_source=L1_64,
                          datapaths=[("fp32_or_int32_or_fp16", 2), ("fp32_or_int32", 2),
                                     ("fp64", 0.0625), ("lsu", 0.5), ("mufu", 0.5)]),
}
# Kepler and Maxwell: only for the public replays (tests/data/projection-public/).
# Kepler SMX: 4 schedulers, counted at 4 warp instructions a clock as every other entry (the
# 2 dispatch units of each issue a second only when the warp has independent instructions: CUDA
# C++ Programming Guide, "Multiprocessor Level"), the FP32/INT32 paths held to that peak; 192
# FP32 lanes of which 160 run INT32 (its throughput table, cc 3.x). Maxwell SMM: 128 lanes that
# run FP32 or INT32. No L2 rate is published for either: 64 B/clk/SM is assumed (derived).
L2_ASSUMED = ("assumed 64 B/clk/SM: no gpu-l2-cache plateau or vendor L2 rate exists for "
              "Kepler or Maxwell; for the public replay only")
_KEPLER_PATHS = [("fp32_or_int32", 4), ("fp32", 1), ("lsu", 1), ("mufu", 1)]
ARCH["kepler"] = dict(cc="3.5", schedulers=4, pipes={"fp32": 4, "int32": 4, "lsu": 1},
                      gflops={"fp64": 128, "fp32": 384}, l1=128, l1_source=L1_128,
                      l2=(64, L2_ASSUMED), datapaths=_KEPLER_PATHS + [("fp64", 2)])
ARCH["kepler_geforce"] = dict(ARCH["kepler"], gflops={"fp64": 16, "fp32": 384},
                              datapaths=_KEPLER_PATHS + [("fp64", 0.25)])
ARCH["kepler_gk104"] = dict(ARCH["kepler_geforce"], cc="3.0")
ARCH["maxwell"] = dict(cc="5.2", pipes={"fp32": 4, "int32": 4, "lsu": 1},
                       gflops={"fp64": 8, "fp32": 256}, l1=128, l1_source=L1_128,
                       l2=(64, L2_ASSUMED),
                       datapaths=[("fp32_or_int32", 4), ("fp64", 0.125), ("lsu", 1),
                                  ("mufu", 1)])
# Pascal GP10x (cc 6.1; tests/data/projection-public/magus/): the Maxwell SM with FP16 at 1/64
# of FP32 (2 results/clk/SM, CUDA C++ Programming Guide throughput table, cc 6.1).
ARCH["pascal_gp10x"] = dict(ARCH["maxwell"], cc="6.1",
                            l2=(64, "assumed 64 B/clk/SM as for Maxwell: no gpu-l2-cache plateau "
                                "or vendor L2 rate exists for Pascal GP10x; for the public "
                                "replay only"),
                            datapaths=[("fp32_or_int32", 4), ("fp64", 0.125), ("fp16", 0.0625),
                                       ("lsu", 1), ("mufu", 1)])

for _name, _paper in [("volta", "Volta V100 (2017)"), ("turing", "Turing (2018)"),
                      ("ga100", "Ampere A100 (2020)"), ("ga10x", "Ampere GA102 (2020)"),
                      ("ada", "Ada Lovelace (2022)"), ("hopper", "H100 Hopper (2022)"),
                      ("hopper_export", "H100 Hopper (2022)"),
                      ("blackwell", "Blackwell (2024)"), ("blackwell_ultra", "Blackwell (2024)"),
                      ("blackwell_rtx", "RTX Blackwell (2025)"), ("kepler", "Kepler GK110 (2012)"),
                      ("kepler_geforce", "Kepler GK110 (2012)"),
                      ("kepler_gk104", "GeForce GTX 680 Kepler (2012)"),
                      ("maxwell", "GeForce GTX 980 Maxwell (2014)"),
                      ("pascal_gp10x", "GeForce GTX 1080 Pascal (2016)")]:
    ARCH[_name]["datapath_source"] = WP % _paper
    ARCH[_name]["pipe_source"] = THROUGHPUT

from gpu_entry_products import BLOCKS_ONLY, GPUS  # noqa: E402,F401
from gpu_entry_public import VALIDATION_GPUS  # noqa: E402,F401
