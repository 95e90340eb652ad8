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

/// What a gpu test does when something it needs is missing (device, counters, compute
/// capability): skip it, or fail it when a device is required.
enum class Unmet { skip, fail };

/// Unmet::fail under IRF_GPU_TESTS_REQUIRE=1, else Unmet::skip.
[[nodiscard]] Unmet on_unmet_condition();

/// True when IRF_GPU_TESTS_REQUIRE=1: a missing device is then a failure, not a skip (set by
/// scripts/gpu-validate.sh so that a broken device can never look like a green run).
[[nodiscard]] bool device_required();

} // namespace irf::test

/// Skips the calling test with `why`, or fails it under IRF_GPU_TESTS_REQUIRE=1 (so a broken or
/// locked-down device can never look like a green run).
#define IRF_GPU_UNMET(why)                                                                         \
    do {                                                                                           \
        const std::string irf_unmet_why = (why);                                                   \
        if (::irf::test::on_unmet_condition() == ::irf::test::Unmet::fail) {                       \
            FAIL() << "IRF_GPU_TESTS_REQUIRE=1 but " << irf_unmet_why;                             \
        }                                                                                          \
        GTEST_SKIP() << irf_unmet_why;                                                             \
    } while (false)

/// IRF_GPU_UNMET with the probe's reason when no device is usable.
#define IRF_REQUIRE_DEVICE()                                                                       \
    do {                                                                                           \
        const ::irf::test::DeviceProbe& irf_probe = ::irf::test::probe_device();                   \
        if (!irf_probe.available) {                                                                \
            IRF_GPU_UNMET(irf_probe.reason);                                                       \
        }                                                                                          \
    } while (false)
