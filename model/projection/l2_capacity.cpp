// SPDX-License-Identifier: Apache-2.0
// L2 working set and DRAM traffic re-estimate (docs/model.md, "L2 capacity").
#include "model/projection/l2_capacity.hpp"

#include <algorithm>
#include <cmath>

namespace irf::model {

namespace {
constexpr double s_unchanged = 0.01; // relative change below which DRAM traffic is unchanged
} // namespace

double dram_traffic_bytes(double working_set, double l2_traffic, double capacity) {
    if (working_set <= capacity) {
        return working_set; // compulsory misses only
    }
    const double reuse = std::max(0.0, l2_traffic - working_set);
    return working_set + reuse * (1.0 - capacity / working_set);
}

double working_set_bytes(double l2_traffic, double dram_traffic, double capacity) {
    if (dram_traffic <= capacity) {
        return dram_traffic;
    }
    // Inverse of dram_traffic_bytes above the capacity: D = T + C - T x C / W.
    const double traffic = std::max(l2_traffic, dram_traffic);
    return std::min(traffic, traffic * capacity / (traffic + capacity - dram_traffic));
}

std::optional<L2Fit> l2_fit(const LevelBytes& bytes, std::uint64_t launches,
                            const config::GpuIdentity& source, const config::GpuIdentity& target,
                            std::string& why) {
    if (source.l2_bytes == 0 || target.l2_bytes == 0) {
        why = "L2 size unknown";
        return std::nullopt;
    }
    const double n = static_cast<double>(std::max<std::uint64_t>(launches, 1));
    const double c_s = static_cast<double>(source.l2_bytes);
    const double c_t = static_cast<double>(target.l2_bytes);
    L2Fit f;
    // LevelBytes splits L2 traffic into hits and DRAM bytes, so their sum is all of it.
    f.l2_traffic_bytes = (bytes.l2 + bytes.hbm) / n;
    f.dram_source_bytes = bytes.hbm / n;
    f.working_set_bytes = working_set_bytes(f.l2_traffic_bytes, f.dram_source_bytes, c_s);
    f.fits_source = f.working_set_bytes <= c_s;
    f.fits_target = f.working_set_bytes <= c_t;
    // One continuous rule for every pair of L2 sizes: at c_s the formula gives back the measured
    // traffic, so a working set near a capacity moves the answer a little, never by a jump.
    f.dram_target_bytes = c_s != c_t
                              ? dram_traffic_bytes(f.working_set_bytes, f.l2_traffic_bytes, c_t)
                              : f.dram_source_bytes;
    // A streaming kernel (no reuse in L2) moves the same DRAM bytes whatever the L2 holds: a
    // re-estimate within 1% of the measured traffic changes nothing and costs no confidence.
    f.re_estimated =
        std::abs(f.dram_target_bytes - f.dram_source_bytes) > s_unchanged * f.dram_source_bytes;
    if (!f.re_estimated) {
        f.dram_target_bytes = f.dram_source_bytes;
    }
    return f;
}

} // namespace irf::model
