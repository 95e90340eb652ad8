// SPDX-License-Identifier: Apache-2.0
// The fake libcuda of the libirf_entry.so tests: what each of its launch functions records.
#pragma once

#include <cstdint>

extern "C" {

/// One call that reached a launch function of the fake driver, with its arguments.
struct FakeCudaCall {
    std::uint32_t entry;      ///< IrfEntryPoint of the function called
    std::uint32_t per_thread; ///< 1 when the _ptsz function was called
    void* function;
    void* stream;
    unsigned grid[3];
    unsigned block[3];
    unsigned shared_bytes;
    void** kernel_params;
    void** extra;
    const void* config;
    void* graph_exec;
    int errno_seen; ///< errno when the call arrived
    int result;     ///< what it returned (1000 + its index); it leaves errno = 2000 + index
};

/// The calls recorded so far (`count` set to their number).
using FakeCudaCallsFn = const FakeCudaCall* (*)(int* count);
/// The fake's own function for a driver name (e.g. "cuLaunchKernel_ptsz") as cuGetProcAddress
/// hands it out, or with "export:" before the name the exported one dlsym finds; else null.
using FakeCudaFunctionFn = void* (*)(const char* name);
}
