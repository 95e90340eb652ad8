# SPDX-License-Identifier: Apache-2.0
"""Products of scripts/gpu_entry.py: identity, DRAM, tensor rates per SM per clock and clocks.
See gpu_entry_specs.py for the rules; (R) marks figures recalled, not re-read in this pass."""

GB = 1024 ** 3
MB = 1024 ** 2

# Measured clocks under load that the derived ones scale from (docs/ceilings.md, "Sustained
# clocks"): (measured, rated boost, source).
TPU_2080TI = ("techpowerup.com/review/msi-geforce-rtx-2080-ti-gaming-x-trio/38.html: RTX 2080 Ti "
              "FE averaged 1824 MHz over the test suite (rated 1635), the Gaming X Trio 1926")
TT_3090TI = ("tweaktown.com/news/88568: RTX 3090 Ti at stock 2000-2050 MHz in Cyberpunk 2077 "
             "(rated boost 1860)")
TT_4090 = ("tweaktown.com/news/88568: RTX 4090 FE at stock 2810-2850 MHz in Cyberpunk 2077 "
           "(rated boost 2520)")
TPU_5060TI = ("techpowerup.com/review/gainward-geforce-rtx-5060-ti-8-gb/42.html: gaming over 25 "
              "games 2703 MHz, 2490 to 2805 (rated boost 2572)")
FORUM_A6000 = ("forums.developer.nvidia.com/t/sm-clock-on-rtx-a6000-never-reaches-max-frequency/"
               "203772: warmed up under CUDA work the card reached 1935 of its 2100 MHz maximum, "
               "then SW power scaling lowered it")
A6000_HELD = ("a 300 W workstation card that its power limit holds near the rated boost, not a "
              "GeForce part's ratio (docs/ceilings.md, Sustained clocks)")
# FP32 GEMM rates of kind "torch fp32-matmul" (docs/ceilings.md, "FP32 GEMM rates").
TORCH_FP32_GEMM = ("chsasank/device-benchmarks@02b8262e README.md, section Matrix Multiplication "
                   "FLOPS and BW, the summary table, TFLOPs (FP32) column (rounded to 1 TFLOP/s)",
                   "torch fp32-matmul: square torch.matmul in FP32 at sizes 256 to 6888, the best "
                   "rate")
FLASHINFER_B200 = "flashinfer PR #2899: B200 about 1965 MHz under load, about 1580 once throttled"
DC = ("data-centre parts hold their boost clock under load unless power-capped (docs/ceilings.md, "
      "Sustained clocks)")

GENERATION = {  # typical / rated and highest / rated, from the measurement named
    "turing": (1824 / 1635, 1926 / 1635, TPU_2080TI),
    "ampere": (2000 / 1860, 2050 / 1860, TT_3090TI),
    "ada": (2810 / 2520, 2850 / 2520, TT_4090),
    "blackwell": (2703 / 2572, 2805 / 2572, TPU_5060TI),
}


def client_clocks(boost, generation):
    """A GeForce or workstation part: above its boost figure by its generation's measured ratio."""
    typical, high, source = GENERATION[generation]
    how = "rated boost %g MHz x %.4f, the %s ratio of %s"
    return {
        "sustained": (boost * typical, "derived", source,
                      how % (boost, typical, "typical", "the measurement in source")),
        "sustained_low": (boost, "spec", "the rated boost clock (the datasheet's)",
                          "GPU Boost holds at least the rated boost at the power limit"),
        "sustained_high": (boost * high, "derived", source,
                           how % (boost, high, "highest", "the measurement in source")),
    }


def datacentre_clocks(boost, source, low=None):
    c = {"sustained": (boost, "spec", source, DC)}
    if low:
        c["sustained_low"] = low
    return c


def gpu(key, name, chip, arch, sms, boost, base, l2_mb, mem_gb, mem_type, dram, aliases, pcie,
        source, tensor, clocks, comment, **extra):
    g = dict(key=key, name=name, chip=chip, arch=arch, sms=sms, boost=boost, base=base,
             l2_bytes=int(l2_mb * MB), memory_bytes=int(mem_gb * GB), memory_type=mem_type,
             dram=dram, aliases=aliases, pcie=pcie, source=source, tensor=tensor, clocks=clocks,
             comment=comment)
    g.update(extra)
    return g


# Tensor rates per SM per clock, dense (gpu-ceilings research note, section 1b).
TURING_GEFORCE = {"fp16": 512, "fp16_f16acc": 1024, "int8": 2048, "int4": 4096}
TURING_PRO = {"fp16": 1024, "int8": 2048, "int4": 4096}
GA10X_GEFORCE = {"fp16": 512, "fp16_f16acc": 1024, "bf16": 512, "tf32": 256, "int8": 2048}
GA10X_PRO = {"fp16": 1024, "bf16": 1024, "tf32": 512, "int8": 2048}
ADA_GEFORCE = {"fp16": 512, "fp16_f16acc": 1024, "bf16": 512, "tf32": 256, "fp8": 1024,
               "int8": 2048}
ADA_L40 = {"fp16": 512, "bf16": 512, "tf32": 256, "fp8": 1024, "int8": 1024}
ADA_PRO = {"fp16": 1024, "bf16": 1024, "tf32": 512, "fp8": 2048, "int8": 2048}
HOPPER = {"fp16": 4096, "bf16": 4096, "tf32": 2048, "fp8": 8192, "int8": 8192}
BLACKWELL = {"fp16": 8192, "bf16": 8192, "tf32": 4096, "fp8": 16384, "int8": 16384, "fp4": 32768}
RTX_BLACKWELL_GEFORCE = {"fp16": 512, "fp16_f16acc": 1024, "bf16": 512, "tf32": 256, "fp8": 1024,
                         "int8": 2048, "fp4": 4096}
RTX_BLACKWELL_PRO = {"fp16": 1024, "bf16": 1024, "tf32": 512, "fp8": 2048, "int8": 2048,
                     "fp4": 4096}

GPUS = [
    gpu("rtx-2080-ti", "NVIDIA GeForce RTX 2080 Ti", "TU102", "turing", 68, 1545, 1350, 5.5, 11,
        "GDDR6", (616, "NVIDIA GeForce RTX 2080 Ti specifications (616 GB/s, 352-bit GDDR6)"),
        ["RTX 2080 Ti"], 3, "NVIDIA Turing architecture whitepaper (2018), RTX 2080 Ti (R)",
        TURING_GEFORCE,
        {"sustained": (1824, "published", TPU_2080TI, "average SM clock of the FE over the "
                       "review's games at its default power limit"),
         "sustained_low": (1545, "spec", "NVIDIA RTX 2080 Ti reference boost clock",
                           "GPU Boost holds at least the rated boost at the power limit"),
         "sustained_high": (1926, "published", TPU_2080TI, "the highest-clocked custom card's "
                            "average")},
        ["GeForce RTX 2080 Ti (TU102, 68 SMs, cc 7.5, GDDR6 616 GB/s, 5.5 MB L2). Reference boost",
         "1545 MHz (the FE is rated 1635). GeForce Turing runs FP32-accumulate tensor math at half",
         "the FP16-accumulate rate. No L2 figure: no gpu-l2-cache plateau exists for TU102."]),
    gpu("titan-rtx", "NVIDIA TITAN RTX", "TU102", "turing", 72, 1770, 1350, 6, 24, "GDDR6",
        (672, "NVIDIA TITAN RTX specifications (672 GB/s, 384-bit GDDR6)"), ["TITAN RTX"], 3,
        "NVIDIA TITAN RTX specifications (130 TFLOPS tensor) (R)", TURING_PRO,
        client_clocks(1770, "turing"),
        ["TITAN RTX (TU102, 72 SMs, cc 7.5, GDDR6 672 GB/s, 6 MB L2): full-rate FP32-accumulate",
         "tensor math, unlike GeForce Turing. No L2 figure (no TU102 plateau)."]),
    gpu("quadro-rtx-6000", "Quadro RTX 6000", "TU102", "turing", 72, 1770, 1440, 6, 24, "GDDR6",
        (672, "NVIDIA Quadro RTX 6000 datasheet (672 GB/s GDDR6)"), ["Quadro RTX 6000"], 3,
        "NVIDIA Quadro RTX 6000 datasheet (16.3 TFLOPS FP32, 130.5 TFLOPS tensor) (R)", TURING_PRO,
        client_clocks(1770, "turing"),
        ["Quadro RTX 6000 (TU102, 72 SMs, cc 7.5, 24 GB GDDR6 672 GB/s, 6 MB L2). No L2 figure."]),
    gpu("quadro-rtx-8000", "Quadro RTX 8000", "TU102", "turing", 72, 1770, 1395, 6, 48, "GDDR6",
        (672, "NVIDIA Quadro RTX 8000 datasheet (672 GB/s GDDR6)"), ["Quadro RTX 8000"], 3,
        "NVIDIA Quadro RTX 8000 datasheet (16.3 TFLOPS FP32, 130.5 TFLOPS tensor) (R)", TURING_PRO,
        client_clocks(1770, "turing"),
        ["Quadro RTX 8000 (TU102, 72 SMs, cc 7.5, 48 GB GDDR6 672 GB/s, 6 MB L2). No L2 figure."]),
    gpu("rtx-3090", "NVIDIA GeForce RTX 3090", "GA102", "ga10x", 82, 1695, 1395, 6, 24, "GDDR6X",
        (936, "NVIDIA GeForce RTX 3090 specifications (936 GB/s, 384-bit GDDR6X)"),
        ["RTX 3090"], 4, "NVIDIA Ampere GA102 GPU architecture whitepaper, RTX 3090 (R)",
        GA10X_GEFORCE, client_clocks(1695, "ampere"),
        ["GeForce RTX 3090 (GA102, 82 SMs, cc 8.6, GDDR6X 936 GB/s, 6 MB L2). The alias does not",
         "match the 3090 Ti, whose SM count (84) differs. No L2 figure (no GA102 plateau)."],
        fp32_gemm=(27000,) + TORCH_FP32_GEMM),
    gpu("rtx-3080", "NVIDIA GeForce RTX 3080", "GA102", "ga10x", 68, 1710, 1440, 5, 10, "GDDR6X",
        (760, "NVIDIA GeForce RTX 3080 specifications (760 GB/s, 320-bit GDDR6X)"),
        ["RTX 3080"], 4, "NVIDIA Ampere GA102 GPU architecture whitepaper, RTX 3080 (R)",
        GA10X_GEFORCE, client_clocks(1710, "ampere"),
        ["GeForce RTX 3080 10 GB (GA102, 68 SMs, cc 8.6, GDDR6X 760 GB/s, 5 MB L2)."]),
    gpu("a40", "NVIDIA A40", "GA102", "ga10x", 84, 1740, 1305, 6, 48, "GDDR6",
        (696, "NVIDIA A40 datasheet (696 GB/s GDDR6)"), ["NVIDIA A40"], 4,
        "NVIDIA A40 datasheet (37.4 TFLOPS FP32, 149.7 TFLOPS FP16 tensor) (R)", GA10X_PRO,
        datacentre_clocks(1740, "NVIDIA A40 datasheet boost clock (R)"),
        ["A40 (GA102, 84 SMs, cc 8.6, 48 GB GDDR6 696 GB/s, 300 W, passive). No L2 figure."]),
    gpu("rtx-a4000", "NVIDIA RTX A4000", "GA104", "ga10x", 48, 1560, 735, 4, 16, "GDDR6",
        (448, "NVIDIA RTX A4000 datasheet (448 GB/s GDDR6)"), ["RTX A4000"], 4,
        "NVIDIA RTX A4000 datasheet (19.2 TFLOPS FP32, 76.7 TFLOPS tensor) (R)", GA10X_PRO,
        client_clocks(1560, "ampere"),
        ["RTX A4000 (GA104, 48 SMs, cc 8.6, 16 GB GDDR6 448 GB/s, 140 W single slot)."]),
    gpu("a30", "NVIDIA A30", "GA100", "ga100", 56, 1440, 930, 24, 24, "HBM2",
        (933, "NVIDIA A30 datasheet (933 GB/s HBM2)"), ["NVIDIA A30"], 4,
        "NVIDIA A30 datasheet (5.2 TFLOPS FP64, 10.3 FP32, 165 FP16 tensor) (R)",
        {"fp16": 2048, "bf16": 2048, "tf32": 1024, "int8": 4096, "fp64": 128},
        datacentre_clocks(1440, "NVIDIA A30 datasheet boost clock (R)"),
        ["A30 (GA100, 56 SMs, cc 8.0, 24 GB HBM2 933 GB/s, 24 MB L2, 165 W)."]),
    gpu("l40", "NVIDIA L40", "AD102", "ada", 142, 2490, 735, 96, 48, "GDDR6",
        (864, "NVIDIA L40 datasheet (864 GB/s GDDR6)"), ["L40"], 4,
        "NVIDIA L40 datasheet (90.5 TFLOPS FP32, 181 dense FP16 tensor) (R)", ADA_L40,
        datacentre_clocks(2490, "NVIDIA L40 datasheet boost clock (R)"),
        ["L40 (AD102, 142 SMs, cc 8.9, 48 GB GDDR6 864 GB/s, 96 MB L2, 300 W). An L40S name holds",
         "both aliases; the longer, L40S, wins (docs/ceilings.md, detection)."]),
    gpu("rtx-6000-ada", "NVIDIA RTX 6000 Ada Generation", "AD102", "ada", 142, 2505, 915, 96, 48,
        "GDDR6", (960, "NVIDIA RTX 6000 Ada datasheet (960 GB/s GDDR6)"),
        ["RTX 6000 Ada"], 4, "NVIDIA RTX 6000 Ada Generation datasheet (91.1 TFLOPS FP32, 1457 "
        "TFLOPS FP8 sparse) (R)", ADA_PRO, client_clocks(2505, "ada"),
        ["RTX 6000 Ada Generation (AD102, 142 SMs, cc 8.9, 48 GB GDDR6 960 GB/s, 300 W)."]),
    gpu("rtx-4080", "NVIDIA GeForce RTX 4080", "AD103", "ada", 76, 2505, 2205, 64, 16, "GDDR6X",
        (716.8, "NVIDIA GeForce RTX 4080 specifications (22.4 Gbps x 256-bit = 716.8 GB/s)"),
        ["RTX 4080"], 4, "NVIDIA Ada Lovelace architecture whitepaper, RTX 4080 (R)", ADA_GEFORCE,
        client_clocks(2505, "ada"),
        ["GeForce RTX 4080 16 GB (AD103, 76 SMs, cc 8.9, GDDR6X 716.8 GB/s, 64 MB L2)."]),
    gpu("h800-sxm", "NVIDIA H800 SXM5 80GB", "GH100", "hopper_export", 132, 1980, 1590, 50, 80, "HBM3",
        (3352.3, "NVIDIA H800 specifications (3.35 TB/s HBM3, as the H100 SXM5) (R)"),
        ["H800"], 5, "NVIDIA H800 Tensor Core GPU specifications (FP64 1 TFLOPS; the rest as the "
        "H100 SXM5) (R)", HOPPER,
        datacentre_clocks(1980, "NVIDIA H800 specifications (as the H100 SXM5) (R)"),
        ["H800 SXM5 (GH100, 132 SMs, cc 9.0, 80 GB HBM3 3.35 TB/s): the H100 SXM5 for export,",
         "FP64 cut to about 1 TFLOPS (vector and tensor) and NVLink to 400 GB/s (R)."],
        tensor_clock=1830),
    gpu("h20", "NVIDIA H20", "GH100", "hopper_export", 78, 1980, 0, 60, 96, "HBM3",
        (4000, "NVIDIA H20 specifications (4.0 TB/s HBM3) (R)"), ["H20"], 5,
        "NVIDIA H20 specifications (FP64 1, TF32 74, BF16 148, FP8 296 TFLOPS dense) (R)",
        {"fp16": 958.3, "bf16": 958.3, "tf32": 479.2, "fp8": 1916.6, "int8": 1916.6},
        datacentre_clocks(1980, "as the H100 SXM5 (R)"),
        ["H20 (GH100 cut down for export, 96 GB HBM3 4.0 TB/s, 60 MB L2, 400 W). The SM count",
         "(78) is reported, not published (R); its tensor figures imply rates per SM far below",
         "the H100's, stored as they follow from the published totals at 78 SMs x 1980 MHz.",
         "Its published FP32 (44 TFLOPS) exceeds 78 x 256 x 1980 = 39.5, stored: a larger SM",
         "count or clock is possible (R)."]),
    gpu("b100", "NVIDIA B100", "GB100", "blackwell", 148, 1443, 0, 126, 192, "HBM3e",
        (8000, "NVIDIA HGX B100 specifications (8 TB/s HBM3e) (R)"), ["B100"], 5,
        "NVIDIA HGX B100 specifications (1.75 PFLOPS dense FP16, 700 W) (R)", BLACKWELL,
        datacentre_clocks(1443, "clock implied by 1.75 PFLOPS dense FP16 at 148 SMs x 8192 "
                          "flop/clk (R)"),
        ["B100 (GB100 at 700 W: the B200's 148 SMs at the clock its 1.75 PFLOPS dense FP16",
         "implies, 1443 MHz (R))."]),
    gpu("gb200", "NVIDIA GB200 (one Blackwell GPU)", "GB100", "blackwell", 148, 2060, 0, 126, 186,
        "HBM3e", (8000, "NVIDIA GB200 NVL72 specifications (8 TB/s per GPU) (R)"), ["GB200"], 5,
        "NVIDIA GB200 NVL72 specifications (2.5 PFLOPS dense FP16 per GPU) (R)", BLACKWELL,
        datacentre_clocks(2060, "clock implied by 2.5 PFLOPS dense FP16 at 148 SMs x 8192 "
                          "flop/clk (R)"),
        ["One Blackwell GPU of a GB200 superchip (148 SMs, cc 10.0, 186 GB HBM3e, 1200 W): the",
         "clock its 2.5 PFLOPS dense FP16 implies, 2060 MHz (R). PCIe: NVLink-C2C to the CPU."]),
    gpu("b300", "NVIDIA B300", "GB110", "blackwell_ultra", 160, 1910, 0, 126, 288, "HBM3e",
        (8000, "NVIDIA HGX B300 specifications (8 TB/s HBM3e) (R)"), ["B300"], 5,
        "NVIDIA Blackwell Ultra (B300) specifications (FP64 about 1.25 TFLOPS) (R)",
        {"fp16": 8192, "bf16": 8192, "tf32": 4096, "fp8": 16384, "fp4": 49152},
        datacentre_clocks(1910, "NVIDIA Blackwell Ultra specifications (R)"),
        ["B300 (Blackwell Ultra, 160 SMs, cc 10.3, 288 GB HBM3e 8 TB/s): FP64 cut to the GB20x",
         "rate and FP4 raised by half (R). cc 10.3's SM limits: the toolkit's (docs/ceilings.md)."]),
    gpu("rtx-5090", "NVIDIA GeForce RTX 5090", "GB202", "blackwell_rtx", 170, 2407, 2017, 96, 32,
        "GDDR7", (1792, "NVIDIA GeForce RTX 5090 specifications (28 Gbps x 512-bit = 1792 GB/s)"),
        ["RTX 5090"], 5, "NVIDIA RTX Blackwell GPU architecture whitepaper (2025), RTX 5090 (R)",
        RTX_BLACKWELL_GEFORCE, client_clocks(2407, "blackwell"),
        ["GeForce RTX 5090 (GB202, 170 SMs, cc 12.0, 32 GB GDDR7 1792 GB/s, 96 MB L2). cc 12.0's",
         "SM limits: the toolkit's (docs/ceilings.md)."]),
    gpu("rtx-pro-6000-blackwell", "NVIDIA RTX PRO 6000 Blackwell", "GB202", "blackwell_rtx", 188,
        2617, 1590, 128, 96, "GDDR7",
        (1792, "NVIDIA RTX PRO 6000 Blackwell datasheet (1792 GB/s GDDR7)"),
        ["RTX PRO 6000 Blackwell"], 5, "NVIDIA RTX PRO 6000 Blackwell datasheet (125 TFLOPS FP32, "
        "4000 AI TOPS FP4 sparse) (R)", RTX_BLACKWELL_PRO, client_clocks(2617, "blackwell"),
        ["RTX PRO 6000 Blackwell (GB202, 188 SMs, cc 12.0, 96 GB GDDR7 1792 GB/s, 128 MB L2)."]),
]

# Entries written by hand: scripts/gpu_entry.py blocks KEY prints their datapaths and clocks.
H100_SXM_LOW = (1642, "measured", "this project's H100 SXM recording, "
                "tests/data/gpu/projection/h100/torch_step.json",
                "median clock_hz over the training step's 109 profiled kernels")
BLOCKS_ONLY = {
    "v100-sxm2": dict(arch="volta", sms=80, boost=1530,
                      clocks=datacentre_clocks(1530, "NVIDIA V100 datasheet boost clock")),
    "a100": dict(arch="ga100", sms=108, boost=1410,
                 clocks=datacentre_clocks(1410, "NVIDIA A100 datasheet boost clock")),
    "h100-sxm5": dict(arch="hopper", sms=132, boost=1980,
                      clocks=datacentre_clocks(1980, "NVIDIA H100 datasheet boost clock",
                                               H100_SXM_LOW)),
    "h100-pcie": dict(arch="hopper", sms=114, boost=1755, clocks=datacentre_clocks(
        1755, "NVIDIA H100 PCIe boost clock",
        (1395, "published", "Chips and Cheese, Nvidia's H100: Funny L2, and Tons of Bandwidth "
         "(2023)", "lowest SM clock seen under its L2 tests at 350 W"))),
    "h200-sxm": dict(arch="hopper", sms=132, boost=1980, clocks={
        "sustained": (1980, "published", "te42kyfo/gpu-benches (H200 measured at 1980 MHz under "
                      "load; gpu-ceilings research note)", "gpu-clock under a spinning kernel")}),
    "gh200": dict(arch="hopper", sms=132, boost=1980,
                  clocks=datacentre_clocks(1980, "NVIDIA GH200 boost clock (R)")),
    "b200": dict(arch="blackwell", sms=148, boost=1980, clocks={
        "sustained": (1965, "published", FLASHINFER_B200, "SM clock under FA4 before throttling"),
        "sustained_low": (1580, "published", FLASHINFER_B200, "SM clock once throttled")}),
    "l40s": dict(arch="ada", sms=142, boost=2520,
                 clocks=datacentre_clocks(2520, "NVIDIA L40S datasheet boost clock")),
    "l4": dict(arch="ada", sms=58, boost=2040,
               clocks=datacentre_clocks(2040, "NVIDIA L4 boost clock")),
    "a10": dict(arch="ga10x", sms=72, boost=1695, clocks=datacentre_clocks(
        1695, "NVIDIA A10 datasheet boost clock",
        (1087, "derived", "CUTLASS maintainers, NVIDIA/cutlass #941: about 20 of 31.2 TFLOP/s "
         "SGEMM is realistic at 150 W", "1695 MHz x 20 / 31.2"))),
    "t4": dict(arch="turing", sms=40, boost=1590,
               clocks=datacentre_clocks(1590, "NVIDIA T4 datasheet boost clock")),
    "a10g": dict(arch="ga10x", sms=80, boost=1710, clocks=datacentre_clocks(
        1710, "NVIDIA A10G datasheet for AWS (35 TFLOPS FP32 at 80 SMs x 256 flop/clk)")),
    "rtx-a6000": dict(arch="ga10x", sms=84, boost=1800, clocks={
        "sustained": (1800, "spec", "NVIDIA RTX A6000 datasheet boost clock", A6000_HELD),
        "sustained_high": (1935, "published", FORUM_A6000, "the highest SM clock reached")}),
    "rtx-3090-ti": dict(arch="ga10x", sms=84, boost=1860, clocks={
        "sustained": (2000, "published", TT_3090TI, "low end of the card's clock at stock"),
        "sustained_low": (1860, "spec", "NVIDIA RTX 3090 Ti rated boost clock",
                          "GPU Boost holds at least the rated boost at the power limit"),
        "sustained_high": (2050, "published", TT_3090TI, "high end of the card's clock at stock")}),
    "rtx-4090": dict(arch="ada", sms=128, boost=2520, clocks={
        "sustained": (2810, "published", TT_4090, "low end of the FE's clock at stock"),
        "sustained_low": (2520, "spec", "NVIDIA RTX 4090 rated boost clock",
                          "GPU Boost holds at least the rated boost at the power limit"),
        "sustained_high": (2850, "published", TT_4090, "high end of the FE's clock at stock")}),
}
