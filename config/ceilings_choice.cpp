// SPDX-License-Identifier: Apache-2.0
// Choosing the source ceilings of an analysis.
#include "config/ceilings_choice.hpp"

#include <exception>

#include "config/gpu_database.hpp"

namespace irf::config {

CeilingsChoice choose_ceilings(const std::string& requested, const std::string& what,
                               const GpuProperties& gpu, const std::vector<std::string>& dirs) {
    CeilingsChoice choice;
    if (!requested.empty()) {
        choice.ceilings = load_named_ceilings(requested, dirs, what);
        return choice;
    }
    if (gpu.sms <= 0 || gpu.cc.empty()) {
        choice.notes.emplace_back("GPU properties unknown (no SM count or compute capability): "
                                  "no ceilings to choose");
        return choice;
    }
    try {
        if (const auto key = match_gpu(gpu.name, gpu.cc, gpu.sms, dirs)) {
            choice.ceilings = load_shipped(*key, dirs);
            return choice;
        }
    } catch (const std::exception& e) {
        choice.notes.push_back(std::string("shipped ceilings unusable: ") + e.what());
    }
    choice.notes.push_back("no shipped ceilings for " + gpu.name + " (cc " + gpu.cc + ", " +
                           std::to_string(gpu.sms) +
                           " SMs): derived from device properties (run irf-calibrate)");
    choice.ceilings =
        derive_ceilings(gpu.name, gpu.chip, gpu.cc, gpu.sms, gpu.clock_mhz, gpu.l2_bytes);
    return choice;
}

} // namespace irf::config
