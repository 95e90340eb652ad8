// SPDX-License-Identifier: Apache-2.0
// Global and shared memory walls (docs/model.md: IRM 3.1-3.2).
#include "model/walls.hpp"

#include <algorithm>
#include <cmath>

#include "model/counters.hpp"

namespace irf::model {

namespace {

// A wall claims intensities within this factor of it (a quarter octave either side).
const double s_tolerance = std::pow(2.0, 0.25);

bool near(double intensity, double wall) {
    return intensity >= wall / s_tolerance && intensity <= wall * s_tolerance;
}

} // namespace

std::string global_pattern(double intensity) {
    if (intensity >= 1.0 / s_tolerance) {
        return "stride-0";
    }
    if (near(intensity, 1.0 / 4)) {
        return "unit-fp32";
    }
    if (near(intensity, 1.0 / 8)) {
        return "unit-fp64";
    }
    if (intensity <= s_tolerance / 32) {
        return "gather";
    }
    return "strided";
}

std::optional<GlobalWall> global_wall(const Counters& counters, std::vector<std::string>& missing) {
    const auto inst = counter_sum(counters, {"inst_global_ld", "inst_global_st"});
    const auto sectors = counter_sum(counters, {"sectors_global_ld", "sectors_global_st"});
    if (!inst || !sectors) {
        missing.push_back("walls.global: counters absent: " +
                          absent_counters(counters, {"inst_global_ld", "inst_global_st",
                                                     "sectors_global_ld", "sectors_global_st"}));
        return std::nullopt;
    }
    const auto intensity = safe_ratio(*inst, *sectors);
    if (*inst <= 0 || !intensity) {
        missing.push_back("walls.global: no global load/store instructions or sectors");
        return std::nullopt;
    }
    return GlobalWall{*intensity, global_pattern(*intensity)};
}

double conflict_ways(double intensity) {
    if (!(intensity > 0)) {
        return 32;
    }
    return std::clamp(1.0 / intensity, 1.0, 32.0);
}

std::optional<SharedWall> shared_wall(const Counters& counters, std::vector<std::string>& missing) {
    const auto inst = counter_sum(counters, {"inst_shared_ld", "inst_shared_st"});
    const auto wavefronts = counter_sum(counters, {"wavefronts_shared_ld", "wavefronts_shared_st"});
    if (!inst || !wavefronts) {
        missing.push_back(
            "walls.shared: counters absent: " +
            absent_counters(counters, {"inst_shared_ld", "inst_shared_st", "wavefronts_shared_ld",
                                       "wavefronts_shared_st"}));
        return std::nullopt;
    }
    const auto intensity = safe_ratio(*inst, *wavefronts);
    if (*inst <= 0 || !intensity) {
        missing.push_back("walls.shared: no shared load/store instructions or wavefronts");
        return std::nullopt;
    }
    return SharedWall{*intensity, conflict_ways(*intensity)};
}

} // namespace irf::model
