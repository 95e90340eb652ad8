// SPDX-License-Identifier: Apache-2.0
// Sample validity: one range, nothing dropped, no breach, and every CTA of the grid counted.
#include "intercept/cupti/sample_check.hpp"

namespace irf::intercept::cupti {

const char* sample_problem(const SampleEvidence& evidence,
                           const model::Counters& counters) noexcept {
    if (evidence.dropped > 0) {
        return k_discard_dropped; // another launch's range fell into this window
    }
    if (evidence.ranges != 1) {
        return k_discard_ranges; // two kernels (or none) inside one Start/Stop window
    }
    if (evidence.window_breached) {
        return k_discard_breach;
    }
    const auto ctas = counters.find("ctas_launched");
    if (ctas != counters.end() && ctas->second != static_cast<double>(evidence.grid_ctas)) {
        return k_discard_ctas; // the counters belong to a launch of another shape
    }
    return nullptr;
}

std::uint64_t grid_ctas(const model::LaunchConfig& launch) noexcept {
    return std::uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
}

} // namespace irf::intercept::cupti
