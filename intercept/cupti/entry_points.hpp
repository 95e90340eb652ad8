// SPDX-License-Identifier: Apache-2.0
// libirf_entry.so's interface (docs/tools.md, "irf run --fast-intercept"): the library, preloaded
// by `irf run --fast-intercept`, wraps the driver's launch entry points where the CUDA runtime
// resolves them (cuGetProcAddress_v2 and cuGetProcAddress, and dlsym of the launch entry
// points' own names) and calls the hooks
// registered here around each launch. Plain C types only: libirf finds the registration function
// with dlsym(RTLD_DEFAULT) and never links the library (docs/reference: overhead.md section 3).
#pragma once

#include <stdint.h> // NOLINT(modernize-deprecated-headers): a C interface

#ifdef __cplusplus
extern "C" {
#endif

/// The version of IrfEntryHooks this header describes; registration refuses any other.
#define IRF_ENTRY_HOOKS_VERSION 1u

/// The entry point a wrapped launch came through; `_ptsz` variants set IrfEntryLaunch::per_thread.
enum IrfEntryPoint {
    IRF_ENTRY_LAUNCH_KERNEL = 0,      ///< cuLaunchKernel
    IRF_ENTRY_LAUNCH_KERNEL_EX = 1,   ///< cuLaunchKernelEx (its attributes in `config`)
    IRF_ENTRY_LAUNCH_COOPERATIVE = 2, ///< cuLaunchCooperativeKernel
    IRF_ENTRY_GRAPH_LAUNCH = 3,       ///< cuGraphLaunch (`function` null, `graph_exec` set)
};

/// One launch as the application passed it to the driver: pointers are the driver's handles
/// (CUfunction, CUstream, CUgraphExec, const CUlaunchConfig*) as void*.
struct IrfEntryLaunch {
    uint32_t entry;        ///< an IrfEntryPoint
    uint32_t per_thread;   ///< 1 for the _ptsz variant (per-thread default stream)
    void* function;        ///< CUfunction; null for cuGraphLaunch
    void* stream;          ///< CUstream (for cuLaunchKernelEx, config->hStream)
    uint32_t grid[3];      ///< as passed (from `config` for cuLaunchKernelEx); 0 for graphs
    uint32_t block[3];     ///< likewise
    uint32_t shared_bytes; ///< dynamic shared memory; likewise
    void** kernel_params;  ///< as passed
    void** extra;          ///< as passed (null for the cooperative launch)
    const void* config;    ///< const CUlaunchConfig* of cuLaunchKernelEx, else null
    void* graph_exec;      ///< CUgraphExec of cuGraphLaunch, else null
};

/// The hooks libirf registers. Both run on the launching thread and must not throw; `before`
/// returns a cookie handed to `after` (the launch's state between the two, as a CUPTI
/// callback's correlationData), `after` gets the driver's CUresult as int.
struct IrfEntryHooks {
    uint32_t version; ///< IRF_ENTRY_HOOKS_VERSION
    uint32_t size;    ///< sizeof(struct IrfEntryHooks) of the registering side
    uint64_t (*before)(const struct IrfEntryLaunch* launch);
    void (*after)(const struct IrfEntryLaunch* launch, uint64_t cookie, int result);
};

/// Registers `hooks` (static storage: it is read until the process ends) for every later wrapped
/// launch; null unregisters (launches become pure pass-through). Returns 0, or -1 (and changes
/// nothing) when version or size differ from this library's or a hook is null.
typedef int (*IrfEntryRegisterFn)(const struct IrfEntryHooks* hooks);

/// Distinct driver launch functions wrapped so far (0: nothing resolved a launch entry point
/// through cuGetProcAddress or dlsym, e.g. the application linked libcuda directly).
typedef uint64_t (*IrfEntryWrappedFn)(void);

/// The exported names of the two functions above.
#define IRF_ENTRY_REGISTER_SYMBOL "irf_entry_register_hooks"
#define IRF_ENTRY_WRAPPED_SYMBOL "irf_entry_wrapped_entry_points"

#ifdef __cplusplus
}
#endif
