# SPDX-License-Identifier: Apache-2.0
"""Kepler, Maxwell and Pascal entries for the public projection replays only (issue 54 item 5),
written by `scripts/gpu_entry.py write-public` to tests/data/projection-public/<set>/ceilings/.
gpuperfpredict: clock, L2 size and DRAM bandwidth are those the dataset itself recorded on each
card (deviceQuery's max clock rate; its `bandwith` column); SM counts from NVIDIA's whitepapers.
magus: the dataset records no device figures; NVIDIA's product specifications instead."""

from gpu_entry_products import gpu

DATASET = ("marcosamaris/gpuperfpredict@7c8ece00:Datasets/Apps-Gpus/*-%s.csv (max_clock_rate, "
           "bandwith, L2 columns: deviceQuery on the card measured)")

GTX_970_DRAM = ("NVIDIA's corrected GTX 970 specification (AnandTech, 'GeForce GTX 970: Correcting "
                "The Specs & Exploring Memory Allocation', 2015-01-26): the 3.5 GB segment is "
                "224-bit, 7/8 x 224.32 = 196.28 GB/s; the other 0.5 GB is 32-bit, 28 GB/s")


GTX_970_L2 = ("NVIDIA's corrected GTX 970 specification (AnandTech, 'GeForce GTX 970: Correcting "
              "The Specs & Exploring Memory Allocation', 2015-01-26): 56 ROPs and 1792 KB of L2, "
              "7 of GM204's 8 ROP/L2 partitions; the rate per partition assumed as for every "
              "Maxwell entry (64 B/clk/SM on the full die)")
GTX_970_L2_RATE = (64 * 16 / 13 * 7 / 8, GTX_970_L2,
                   "GM204's 16 SMs x 64 B/clk/SM = 1024 B/clk over 8 L2 partitions; the GTX 970 "
                   "keeps 7 of them, 896 B/clk, though 13 of the 16 SMs")


def public(key, name, arch, sms, boost, l2_mb, mem_gb, dram, csv_name, chip, dram_source=None,
           note=None, l2_rate=None):
    g = gpu(key, name, chip, arch, sms, boost, 0, l2_mb, mem_gb, "GDDR5",
            (dram, dram_source or DATASET % csv_name), [name.replace("NVIDIA ", "")], 3,
            DATASET % csv_name, {}, {},
            ["%s (%s, %d SMs): for the public projection replay, not shipped." %
             (name, chip, sms)] + ([note] if note else []) +
            ["Written by scripts/gpu_entry.py write-public; change gpu_entry_public.py."])
    if l2_rate:
        g["l2_rate"] = l2_rate
    return g


VALIDATION_GPUS = [
    public("gtx-680", "NVIDIA GeForce GTX 680", "kepler_gk104", 8, 1058, 0.5, 2, 192.256,
           "GTX-680", "GK104"),
    public("quadro-k5200", "NVIDIA Quadro K5200", "kepler_geforce", 12, 771, 1, 8, 192.256,
           "Quadro", "GK110B"),
    # The dataset's L2 column is whole megabytes: the K20c's reads 1. GK110's 1536 KB L2 is six
    # 256 KB slices, one per 64-bit memory controller (NVIDIA Kepler GK110 whitepaper); the K20c's
    # 320-bit bus has five: 1280 KB.
    public("tesla-k20c", "NVIDIA Tesla K20c", "kepler", 13, 706, 1.25, 5, 208, "Tesla-K20",
           "GK110"),
    public("tesla-k40c", "NVIDIA Tesla K40c", "kepler", 15, 745, 1.5, 12, 288.384, "Tesla-K40",
           "GK110B"),
    public("gtx-titan", "NVIDIA GeForce GTX TITAN", "kepler_geforce", 14, 876, 1.5, 6, 288.384,
           "Titan", "GK110"),
    public("gtx-titan-black", "NVIDIA GeForce GTX TITAN Black", "kepler_geforce", 15, 1088, 1.5,
           6, 336, "TitanBlack", "GK110B"),
    # deviceQuery computes 224.32 GB/s from a 256-bit bus, but the GTX 970's first 3.5 GB (every
    # working set of the dataset: vectorAdd's largest is 3.1 GB) sit on 7 of its 8 32-bit
    # channels, and the last 0.5 GB on the eighth, never read at the same time. Its clock column
    # reads 1076 MHz, under any GTX 970's rated boost (NVIDIA's reference 1178 MHz), and the
    # card's own runs held more: elapsed_cycles_sm / 13 SMs / duration, median 1145 MHz over the
    # dataset's kernels, 1121-1190 MHz for the long matMul_gpu runs; so the rated 1178 MHz.
    public("gtx-970", "NVIDIA GeForce GTX 970", "maxwell", 13, 1178, 1.75, 4, 196.28, "GTX-970",
           "GM204", GTX_970_DRAM,
           "Boost: NVIDIA's 1178 MHz, not the dataset's 1076 (its runs held a median 1145 MHz).",
           GTX_970_L2_RATE),
    public("gtx-980", "NVIDIA GeForce GTX 980", "maxwell", 16, 1216, 2, 4, 224.32, "GTX-980",
           "GM204"),
    public("gtx-titan-x", "NVIDIA GeForce GTX TITAN X", "maxwell", 24, 1076, 3, 12, 336.48,
           "TitanX", "GM200"),
]

# leimingyu/magus records nvprof metrics only: every figure is NVIDIA's (boost clock, not the
# higher clock GeForce cards hold under load; docs/ceilings.md, "Sustained clocks").
SPEC_950 = ("NVIDIA GeForce GTX 950 specifications (768 CUDA cores, 1188 MHz boost, 6.6 Gbps x "
            "128-bit GDDR5 = 105.6 GB/s, 2 GB); GM206 L2 1 MB (GeForce GTX 950 review guide)")
SPEC_1080TI = ("NVIDIA GeForce GTX 1080 Ti specifications (3584 CUDA cores, 1582 MHz boost, 11 Gbps"
               " x 352-bit GDDR5X = 484 GB/s, 11 GB); GP102 L2 2816 KB (GTX 1080 Ti launch)")


MAGUS_FLOOR = ("leimingyu/magus at b9153ef6, nvprof metrics of this GPU "
               "(tests/data/projection-public/magus/README.md)")


def magus(key, name, arch, sms, boost, base, l2_mb, mem_gb, mem_type, dram, source, chip, floor):
    g = gpu(key, name, chip, arch, sms, boost, base, l2_mb, mem_gb, mem_type, (dram, source),
               [name.replace("NVIDIA ", "")], 3, source, {}, {},
               ["%s (%s, %d SMs): for the public projection replay, not shipped." %
                (name, chip, sms),
                "Written by scripts/gpu_entry.py write-public; change gpu_entry_public.py."],
               set="magus")
    g["latency"] = (floor[0], "measured", MAGUS_FLOOR,
                    "shortest derived time_ns of the 280 kernels: " + floor[1])
    return g


VALIDATION_GPUS += [
    magus("gtx-950", "NVIDIA GeForce GTX 950", "maxwell", 6, 1188, 1024, 1, 2, "GDDR5", 105.6,
          SPEC_950, "GM206",
          (2.054, "sdk/cuSolverDn_LinearSolver dtrsv_init_up (9 warp instructions)")),
    magus("gtx-1080-ti", "NVIDIA GeForce GTX 1080 Ti", "pascal_gp10x", 28, 1582, 1480, 2.75, 11,
          "GDDR5X", 484, SPEC_1080TI, "GP102",
          (1.953, "lonestar/mst dinitcs (2304 warp instructions)")),
]
