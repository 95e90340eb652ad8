#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns public cross-generation measurements into irf profiles for the projection replay
(issue 54 item 5; tests/data/projection-public/README.md).

    scripts/projection_public.py gpuperfpredict REPO_DIR OUT_DIR [--every N]
    scripts/projection_public.py magus REPO_DIR OUT_DIR

magus: REPO_DIR holds leimingyu/magus at b9153ef6 (MIT); scripts/projection_public_magus.py
reads it (tests/data/projection-public/magus/README.md).

REPO_DIR is a checkout of marcosamaris/gpuperfpredict at 7c8ece00 (CC BY 4.0). Each of its
Datasets/Apps-Gpus/<app>-<gpu>.csv rows is one kernel run at one input size with nvprof's events
and metrics and its duration; each GPU becomes OUT_DIR/<gpu>.json, one kernel per (app, input
size), the counters renamed to irf's canonical ones (README: the mapping). Only the data is read.
"""
import csv
import json
import os
import subprocess
import sys

COMMIT = "7c8ece00dd68a7bacfffb4dd40ffe92645e7e96b"
# The *-GTX-750.csv files hold GTX 680 data (their gpu_name column); left out.
GPUS = {"GTX-680": "gtx-680", "GTX-970": "gtx-970", "GTX-980": "gtx-980", "Quadro": "quadro-k5200",
        "Tesla-K20": "tesla-k20c", "Tesla-K40": "tesla-k40c", "Titan": "gtx-titan",
        "TitanBlack": "gtx-titan-black", "TitanX": "gtx-titan-x"}
APPS = ["dotProd", "matMul_gpu", "matMul_gpu_sharedmem", "matMul_gpu_sharedmem_uncoalesced",
        "matMul_gpu_uncoalesced", "matrix_sum_coalesced", "matrix_sum_normal", "subSeqMax",
        "vectorAdd"]
# irf canonical counter <- the CSV column (nvprof event or metric, per kernel run).
COUNTERS = {
    "inst_warp": "inst_executed",
    "inst_thread": "thread_inst_executed",
    "sectors_global_ld": "Global.Load.Transactions",
    "sectors_global_st": "Global.Store.Transactions",
    "sectors_local_ld": "Local.Load.Transactions",
    "sectors_local_st": "Local.Store.Transactions",
    "wavefronts_shared_ld": "Shared.Load.Transactions",
    "wavefronts_shared_st": "Shared.Store.Transactions",
    "l2_sectors_read": "L2.Read.Transactions",
    "l2_sectors_write": "L2.Write.Transactions",
    "dram_sectors_read": "Device.Memory.Read.Transactions",
    "dram_sectors_write": "Device.Memory.Write.Transactions",
    "thread_fadd": "Floating.Point.Operations.Single.Precision.Add.",
    "thread_fmul": "Floating.Point.Operation.Single.Precision.Mul.",
    "thread_ffma": "Floating.Point.Operations.Single.Precision.FMA.",
    "thread_dadd": "Floating.Point.Operations.Double.Precision.Add.",
    "thread_dmul": "Floating.Point.Operations.Double.Precision.Mul.",
    "thread_dfma": "Floating.Point.Operations.Double.Precison.FMA.",
    "thread_class_fp32": "FP.Instructions.Single.",
    "thread_class_fp64": "FP.Instructions.Double.",
    "thread_class_integer": "Integer.Instructions",
    "thread_class_conversion": "Bit.Convert.Instructions",
    "thread_class_control": "Control.Flow.Instructions",
    "thread_class_memory": "Load.Store.Instructions",
    "thread_class_misc": "Misc.Instructions",
    "thread_class_comm": "Inter.Thread.Instructions",
}


def rows(repo, app, gpu):
    text = subprocess.run(["git", "-C", repo, "show",
                           "%s:Datasets/Apps-Gpus/%s-%s.csv" % (COMMIT, app, gpu)],
                          check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(text.splitlines()))


def number(row, column):
    try:
        value = float(row[column])
    except (KeyError, ValueError):
        return None
    return value if value == value and value >= 0 else None


def kernel(app, row):
    counters = {}
    for name, column in COUNTERS.items():
        value = number(row, column)
        if value is not None:
            counters[name] = value
    ns = number(row, "Duration") * 1e9
    counters["time_ns"] = ns
    dim = [int(number(row, "Grid." + a) or 1) for a in "XYZ"]
    block = [int(number(row, "Block." + a) or 1) for a in "XYZ"]
    smem = int((number(row, "Static.SMem") or 0) + (number(row, "Dynamic.SMem") or 0))
    return {"name": "%s[%s]" % (app, row["Input.Size"]), "mangled": "", "call_site": "",
            "launch": {"grid": dim, "block": block, "smem": smem,
                       "regs": int(number(row, "Registers.Per.Thread") or 0)},
            "launches": 1, "profiled_launches": 1,
            "time_ns": {"total": ns, "min": ns, "mean": ns, "max": ns},
            "notes": [], "counters": counters}


def profile(repo, gpu, every):
    kernels = []
    device = ""
    for app in APPS:
        runs = rows(repo, app, gpu)
        seen = set()
        for i, row in enumerate(runs):
            size = row["Input.Size"]
            if i % every or size in seen or number(row, "Duration") is None:
                continue
            seen.add(size)
            device = row["Device"].rsplit(" (", 1)[0]
            kernels.append(kernel(app, row))
    return {"schema": "irf.profile/v1", "tool": "projection_public.py", "version": "0.1.0",
            "app": "gpuperfpredict@" + COMMIT[:8], "argv": [], "pid": 0, "host": "",
            "start_time": "", "end_time": "", "config": {},
            "gpu": {"name": device, "chip": "", "cc": runs[0]["compute_version"], "sms": 0,
                    "clock_hz": 0, "l2_bytes": 0, "memory_bytes": 0, "driver": ""},
            "coverage": {"launches": len(kernels), "kernels": len(kernels),
                         "profiled_launches": len(kernels), "passes": 1},
            "kernels": kernels, "warnings": []}


def write(path, data):
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, separators=(",", ":"))
        out.write("\n")


def main(argv):
    if len(argv) < 4 or argv[1] not in ("gpuperfpredict", "magus"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "magus":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import projection_public_magus as magus
        os.makedirs(argv[3], exist_ok=True)
        written, left = magus.profiles(argv[2])
        for key, data in written.items():
            write(os.path.join(argv[3], key + ".json"), data)
        print("%d kernels; left out: %s" % (len(written["gtx-950"]["kernels"]), left),
              file=sys.stderr)
        return 0
    every = int(argv[argv.index("--every") + 1]) if "--every" in argv else 1
    os.makedirs(argv[3], exist_ok=True)
    for gpu, key in GPUS.items():
        write(os.path.join(argv[3], key + ".json"), profile(argv[2], gpu, every))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
