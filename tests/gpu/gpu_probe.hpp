// SPDX-License-Identifier: Apache-2.0
// Finds out whether a CUDA device can be used, without linking libcuda (dlopen + cuInit).
#pragma once

#include <string>

namespace irf::test {

/// Whether a CUDA device is usable here, and if not, why.
struct DeviceProbe {
    bool available = false;
    std::string reason; ///< one line; empty when available
};

/// Probes once per process: dlopen("libcuda.so.1"), cuInit(0), cuDeviceGetCount.
[[nodiscard]] const DeviceProbe& probe_device();

/// True when IRF_GPU_TESTS_REQUIRE=1: a missing device is then a failure, not a skip (set by
/// scripts/gpu-validate.sh so that a broken device can never look like a green run).
[[nodiscard]] bool device_required();

} // namespace irf::test
