// SPDX-License-Identifier: Apache-2.0
// The calibrated device: identity and limits read once through the CUDA runtime.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace irf::calibrate {

/// No usable CUDA device (no driver, no GPU, bad index): main prints one line and exits 1.
class NoDevice : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What irf-calibrate needs to know about the device; a plain struct so tests and the report
/// code can build one by hand.
struct DeviceInfo {
    int index = 0;
    std::string name;
    int cc_major = 0;
    int cc_minor = 0;
    int sms = 0;
    double max_clock_mhz = 0; ///< cudaDevAttrClockRate (the boost clock)
    std::uint64_t l2_bytes = 0;
    std::uint64_t memory_bytes = 0;
    std::uint64_t free_bytes = 0;
    std::string driver;  ///< CUDA driver API version, e.g. "13.0"
    std::string runtime; ///< CUDA runtime version

    /// "M.m" compute capability.
    [[nodiscard]] std::string cc() const {
        return std::to_string(cc_major) + "." + std::to_string(cc_minor);
    }
    /// major x 10 + minor, e.g. 90.
    [[nodiscard]] int cc_number() const { return cc_major * 10 + cc_minor; }
};

/// Selects device `index` and reads its properties; throws NoDevice with the runtime's reason.
[[nodiscard]] DeviceInfo open_device(int index);

/// Throws std::runtime_error naming `what` when `status` (a cudaError_t) is not success.
void check_cuda(int status, const std::string& what);

} // namespace irf::calibrate
