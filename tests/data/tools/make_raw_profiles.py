#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes the synthetic raw (counters only) profiles raw_before.json and raw_after.json used by the
# tools tests. The counters are made up but self-consistent (a 4096^2 transpose, a STREAM triad,
# a predicated GSRB smoother, an FP16 tensor GEMM, an NCCL kernel seen only by timing).
# The analysed versions are tests/data/golden/tools_profile_{before,after}.json, produced by
# model::analyze in test_tools_profiles.cpp (IRF_UPDATE_GOLDEN=1 regenerates them).
import json

M = 1 << 20

# The counters of a GH100 profile with every group that these kernels use (docs/metrics.md: the
# core set, the sass group's FP operations and SASS classes, the pipe mix and the tensor types);
# absent ones are zero. Each kernel's SASS classes sum to inst_thread and its pipes to inst_warp;
# thread_pipe_* are the FP pipes' thread instructions (32 x inst_pipe_* where fully active).
ZERO = {name: 0 for name in (
    "inst_global_ld inst_global_st inst_local_ld inst_local_st inst_shared_ld inst_shared_st "
    "sectors_global_ld sectors_global_st sectors_local_ld sectors_local_st wavefronts_shared_ld "
    "wavefronts_shared_st l2_sectors_read l2_sectors_write l2_sectors_atom l2_sectors_red "
    "dram_sectors_read dram_sectors_write sysmem_sectors_read sysmem_sectors_write inst_tensor "
    "thread_dadd thread_dmul thread_dfma thread_fadd thread_fmul thread_ffma thread_hadd "
    "thread_hmul thread_hfma inst_pipe_alu inst_pipe_fma inst_pipe_fp64 inst_pipe_fp16 "
    "inst_pipe_lsu inst_pipe_xu inst_pipe_tensor inst_pipe_cbu inst_pipe_adu inst_pipe_uniform "
    "thread_pipe_fma thread_pipe_fp16 thread_pipe_fp64 "
    "tensor_ops_fp16 tensor_ops_bf16 tensor_ops_tf32 tensor_ops_fp8 tensor_ops_fp64 "
    "tensor_ops_int8 thread_class_integer thread_class_bit thread_class_uniform "
    "thread_class_fp64 thread_class_fp32 thread_class_fp16 thread_class_fp8 thread_class_memory "
    "thread_class_control thread_class_conversion thread_class_misc thread_class_comm").split()}


def kernel(name, mangled, grid, block, smem, launches, time_ns, counters):
    total = time_ns * launches
    return {
        "name": name, "mangled": mangled, "call_site": "main < __libc_start_main",
        "launch": {"grid": grid, "block": block, "smem": smem, "regs": 32},
        "launches": launches, "profiled_launches": 1 if counters else 0,
        "time_ns": {"total": total, "min": time_ns * 0.98, "mean": time_ns, "max": time_ns * 1.03},
        "counters": dict(ZERO, **counters, time_ns=time_ns, clock_hz=1.98e9) if counters else {},
        "notes": [],
    }


def transpose_naive(dram_write, time_ns):
    return kernel("void transpose_naive<float>(float*, float const*, int)",
                  "_Z15transpose_naiveIfEvPT_PKS0_i", [128, 128, 1], [32, 8, 1], 0, 10, time_ns, {
                      "inst_warp": 10 * M, "inst_thread": 320 * M,
                      "inst_global_ld": 0.5 * M, "inst_global_st": 0.5 * M,
                      "bytes_global_ld": 64 * M, "bytes_global_st": 64 * M,
                      "sectors_global_ld": 2 * M, "sectors_global_st": 16 * M,
                      "l2_sectors_read": 2 * M, "l2_sectors_write": 16 * M,
                      "dram_sectors_read": 2 * M, "dram_sectors_write": dram_write,
                      "inst_pipe_alu": 4 * M, "inst_pipe_fma": 2 * M, "inst_pipe_lsu": 1 * M,
                      "inst_pipe_cbu": 1 * M, "inst_pipe_uniform": 2 * M,
                      "thread_pipe_fma": 64 * M,
                      "thread_class_integer": 128 * M, "thread_class_bit": 64 * M,
                      "thread_class_memory": 32 * M, "thread_class_control": 32 * M,
                      "thread_class_uniform": 64 * M,
                  })


def transpose_tiled(name, mangled, shared_ld_ways, time_ns):
    return kernel(name, mangled, [128, 128, 1], [32, 8, 1], 4224, 10, time_ns, {
        "inst_warp": 12 * M, "inst_thread": 384 * M,
        "inst_global_ld": 0.5 * M, "inst_global_st": 0.5 * M,
        "bytes_global_ld": 64 * M, "bytes_global_st": 64 * M,
        "sectors_global_ld": 2 * M, "sectors_global_st": 2 * M,
        "inst_shared_ld": 0.5 * M, "inst_shared_st": 0.5 * M,
        "wavefronts_shared_ld": shared_ld_ways * 0.5 * M, "wavefronts_shared_st": 0.5 * M,
        "l2_sectors_read": 2 * M, "l2_sectors_write": 2 * M,
        "dram_sectors_read": 2 * M, "dram_sectors_write": 2 * M,
        "inst_pipe_alu": 5 * M, "inst_pipe_fma": 2 * M, "inst_pipe_lsu": 2 * M,
        "inst_pipe_cbu": 1 * M, "inst_pipe_uniform": 2 * M, "thread_pipe_fma": 64 * M,
        "thread_class_integer": 128 * M, "thread_class_bit": 96 * M, "thread_class_memory": 64 * M,
        "thread_class_control": 32 * M, "thread_class_uniform": 64 * M,
    })


def stream_triad(time_ns):
    return kernel("void stream_triad(double*, double const*, double const*, double)",
                  "_Z12stream_triadPdPKdS1_d", [131072, 1, 1], [256, 1, 1], 0, 20, time_ns, {
                      "inst_warp": 16 * M, "inst_thread": 512 * M,
                      "inst_global_ld": 2 * M, "inst_global_st": 1 * M,
                      "bytes_global_ld": 512 * M, "bytes_global_st": 256 * M,
                      "sectors_global_ld": 16 * M, "sectors_global_st": 8 * M,
                      "l2_sectors_read": 16 * M, "l2_sectors_write": 8 * M,
                      "dram_sectors_read": 16 * M, "dram_sectors_write": 8 * M,
                      "thread_dfma": 32 * M, "inst_pipe_fp64": 1 * M, "inst_pipe_alu": 6 * M,
                      "inst_pipe_fma": 4 * M, "inst_pipe_lsu": 3 * M, "inst_pipe_cbu": 1 * M,
                      "inst_pipe_uniform": 1 * M,
                      "thread_pipe_fp64": 32 * M, "thread_pipe_fma": 128 * M,
                      "thread_class_fp64": 32 * M, "thread_class_integer": 256 * M,
                      "thread_class_bit": 64 * M, "thread_class_memory": 96 * M,
                      "thread_class_control": 32 * M, "thread_class_uniform": 32 * M,
                  })


# The smoother's SASS classes besides its 96 Mi FP64 thread instructions (thread_d*), by
# predication: all threads on (1.0), or half of them off (0.5: 384 Mi thread instructions).
GSRB_CLASSES = {
    1.0: {"integer": 320 * M, "bit": 128 * M, "memory": 112 * M, "control": 80 * M,
          "uniform": 32 * M},
    0.5: {"integer": 120 * M, "bit": 64 * M, "memory": 56 * M, "control": 40 * M,
          "uniform": 8 * M},
}


def gsrb(name, mangled, predication, time_ns):
    warp = 24 * M
    classes = {"thread_class_" + cls: n for cls, n in GSRB_CLASSES[predication].items()}
    return kernel(name, mangled, [64, 64, 8], [32, 4, 1], 0, 40, time_ns, {
        "inst_warp": warp, "inst_thread": warp * 32 * predication,
        "inst_global_ld": 3 * M, "inst_global_st": 0.5 * M,
        # 8-byte words of the threads left on.
        "bytes_global_ld": 3 * M * 32 * 8 * predication,
        "bytes_global_st": 0.5 * M * 32 * 8 * predication,
        "sectors_global_ld": 12 * M, "sectors_global_st": 2 * M,
        "l2_sectors_read": 8 * M, "l2_sectors_write": 2 * M,
        "dram_sectors_read": 4 * M, "dram_sectors_write": 2 * M,
        "thread_dadd": 40 * M, "thread_dmul": 24 * M, "thread_dfma": 32 * M,
        "inst_pipe_fp64": 3 * M, "inst_pipe_alu": 10 * M, "inst_pipe_fma": 4 * M,
        "inst_pipe_lsu": 3.5 * M, "inst_pipe_cbu": 2.5 * M, "inst_pipe_uniform": 1 * M,
        # Every FP64 instruction fully active (96 Mi = 32 x 3 Mi), whatever the predication of
        # the rest: the FP active share of Perf_ceil (docs/model.md) is 1 in both kernels.
        "thread_pipe_fp64": 96 * M, "thread_pipe_fma": 4 * M * 32 * predication,
        "thread_class_fp64": 96 * M, **classes,
    })


def hgemm(l2_read, time_ns):
    return kernel("void hgemm_wmma<128, 128>(__half const*, __half const*, float*, int)",
                  "_Z10hgemm_wmmaILi128ELi128EEvPK6__halfS2_Pfi", [32, 32, 1], [256, 1, 1],
                  65536, 5, time_ns, {
                      "inst_warp": 96 * M, "inst_thread": 3072 * M,
                      "inst_global_ld": 2 * M, "inst_global_st": 0.125 * M,
                      "sectors_global_ld": 16 * M, "sectors_global_st": 1 * M,
                      "inst_shared_ld": 16 * M, "inst_shared_st": 2 * M,
                      "wavefronts_shared_ld": 32 * M, "wavefronts_shared_st": 2 * M,
                      "l2_sectors_read": l2_read, "l2_sectors_write": 1 * M,
                      "dram_sectors_read": 4 * M, "dram_sectors_write": 1 * M,
                      "inst_tensor": 32 * M, "tensor_ops_fp16": 137438953472.0,
                      "inst_pipe_tensor": 32 * M, "inst_pipe_alu": 30 * M,
                      "inst_pipe_fma": 10 * M, "inst_pipe_lsu": 18 * M,
                      "inst_pipe_cbu": 2 * M, "inst_pipe_uniform": 4 * M,
                      "thread_pipe_fma": 320 * M,
                      "thread_class_fp16": 1024 * M, "thread_class_integer": 960 * M,
                      "thread_class_bit": 320 * M, "thread_class_memory": 576 * M,
                      "thread_class_control": 64 * M, "thread_class_uniform": 128 * M,
                  })


def nccl():
    return kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
                  "_Z38ncclDevKernel_AllReduce_Sum_f32_RING_LLP11ncclDevCommmP8ncclWork",
                  [4, 1, 1], [512, 1, 1], 0, 8, 3.0e5, {})


def profile(pid, kernels):
    return {
        "schema": "irf.profile/v1", "tool": "irf", "version": "0.1.0", "app": "synthetic",
        "argv": ["./synthetic"], "pid": pid, "host": "testhost",
        "start_time": "2026-01-01T00:00:00Z", "end_time": "2026-01-01T00:00:05Z",
        "config": {"IRF_SAMPLES": "1"},
        "gpu": {"name": "NVIDIA H100 80GB HBM3", "chip": "GH100", "cc": "9.0", "sms": 132,
                "clock_hz": 1.98e9, "l2_bytes": 52428800, "memory_bytes": 85899345920,
                "driver": "580.00"},
        "coverage": {"launches": sum(k["launches"] for k in kernels), "kernels": len(kernels),
                     "profiled_launches": sum(k["profiled_launches"] for k in kernels),
                     "passes": 4},
        "kernels": kernels, "warnings": ["synthetic test profile: counters are made up"],
    }


before = profile(1000, [
    transpose_naive(16 * M, 1.2e6),
    transpose_tiled("void transpose_coalesced<float>(float*, float const*, int)",
                    "_Z19transpose_coalescedIfEvPT_PKS0_i", 16, 5.5e5),
    stream_triad(2.7e5),
    gsrb("void gsrb_branch(double*, double const*, int)", "_Z11gsrb_branchPdPKdi", 0.5, 4.0e5),
    hgemm(64 * M, 3.1e5),
    nccl(),
])
after = profile(2000, [
    transpose_naive(2.5 * M, 0.9e6),
    transpose_tiled("void transpose_coalesced<float>(float*, float const*, int)",
                    "_Z19transpose_coalescedIfEvPT_PKS0_i", 1, 1.6e5),
    stream_triad(2.73e5),
    gsrb("void gsrb_fp(double*, double const*, int)", "_Z7gsrb_fpPdPKdi", 1.0, 3.6e5),
    hgemm(32 * M, 2.6e5),
    nccl(),
])
for name, doc in (("raw_before.json", before), ("raw_after.json", after)):
    with open(name, "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")
