// SPDX-License-Identifier: Apache-2.0
// Test helper: the driver's launch-callback parameter structs, typed out once. They are copied
// (generated_cuda_meta.h needs internal cuda.h macros); their layout is the driver's ABI, so
// tests built on them also pin what intercept/cupti/launch_params.cpp assumes.
#pragma once

#include <cuda.h>

namespace irf::test {

/// cuLaunchKernel_params.
struct LaunchKernelParams {
    CUfunction f;
    unsigned int gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
    CUstream hStream;
    void** kernelParams;
    void** extra;
};

/// cuLaunchKernelEx_params.
struct LaunchKernelExParams {
    const CUlaunchConfig* config;
    CUfunction f;
    void** kernelParams;
    void** extra;
};

/// cuGraphLaunch_params.
struct GraphLaunchParams {
    CUgraphExec hGraph;
    CUstream hStream;
};

} // namespace irf::test
