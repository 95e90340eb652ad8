// SPDX-License-Identifier: Apache-2.0
// Global and shared memory walls (docs/model.md: IRM 3.1-3.2).
#include "model/walls.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/counters.hpp"
#include "model/predication.hpp"

namespace irf::model {

namespace {

// A wall claims intensities within this factor of it (a quarter octave either side).
const double s_tolerance = std::pow(2.0, 0.25);

constexpr double k_sector_bytes = 32;
constexpr double k_wavefront_bytes = 128;
constexpr double k_warp = 32;
constexpr double k_assumed_word = 4; // IRM's FP32/INT32 wall when no bytes were collected

bool near(double intensity, double wall) {
    return intensity >= wall / s_tolerance && intensity <= wall * s_tolerance;
}

// Bytes requested by `inst` warp accesses: the counted bytes, or 4-byte words for full warps
// when the bytes were not collected (a reason then names what is missing).
struct Requested {
    double bytes = 0;
    std::optional<double> access_bytes;
};

// Threads active per warp instruction, as a share of 32: a half-predicated kernel requests half
// the bytes of its full-warp instructions. The ld/st are assumed predicated like the kernel
// (docs/model.md, Walls); 1 when the predication is unknown (its own verdict says why).
double active_share(const Counters& counters) {
    std::vector<std::string> said_by_the_predication_verdict;
    return predication(counters, said_by_the_predication_verdict).value_or(1.0);
}

Requested requested(const Counters& counters, double inst, std::optional<double> bytes,
                    const std::string& what, const std::string& names,
                    std::vector<std::string>& missing) {
    if (!bytes) {
        missing.push_back(what + ".access_bytes: requested bytes not collected (" + names +
                          "); the wall assumes 4-byte words");
        return {inst * k_warp * k_assumed_word, std::nullopt};
    }
    return {*bytes, safe_ratio(*bytes, inst * k_warp * active_share(counters))};
}

} // namespace

std::string global_pattern(double intensity, double unit_intensity) {
    // A misaligned unit-stride access touches one sector more per instruction: n + 1 instead of
    // n = 1 / unit_intensity (5 for fp32), which is still unit stride (issue 40 item 9).
    const double misaligned = unit_intensity / (1.0 + unit_intensity);
    if (near(intensity, unit_intensity) ||
        (intensity >= misaligned && intensity <= unit_intensity)) {
        return "unit";
    }
    if (intensity >= 1.0 / s_tolerance) {
        return "stride-0";
    }
    if (intensity > unit_intensity) {
        return "broadcast";
    }
    if (intensity <= s_tolerance / 32) {
        return "gather";
    }
    return "strided";
}

double ideal_transactions(double instructions, double bytes, double size) {
    return std::max(instructions, bytes / size);
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
    const Requested req =
        requested(counters, *inst, counter_sum(counters, {"bytes_global_ld", "bytes_global_st"}),
                  "walls.global", "bytes_global_ld/st", missing);
    GlobalWall w;
    w.intensity = *intensity;
    w.unit_intensity = *inst / ideal_transactions(*inst, req.bytes, k_sector_bytes);
    w.access_bytes = req.access_bytes;
    w.pattern = global_pattern(w.intensity, w.unit_intensity);
    return w;
}

double conflict_ways(double wavefronts, double ideal_wavefronts) {
    if (!(ideal_wavefronts > 0)) {
        return 32;
    }
    return std::clamp(wavefronts / ideal_wavefronts, 1.0, 32.0);
}

std::optional<SharedWall> shared_wall(const Counters& counters, std::vector<std::string>& missing) {
    const auto ldst = counter_sum(counters, {"inst_shared_ld", "inst_shared_st"});
    const auto wavefronts = counter_sum(counters, {"wavefronts_shared_ld", "wavefronts_shared_st"});
    if (!ldst || !wavefronts) {
        missing.push_back(
            "walls.shared: counters absent: " +
            absent_counters(counters, {"inst_shared_ld", "inst_shared_st", "wavefronts_shared_ld",
                                       "wavefronts_shared_st"}));
        return std::nullopt;
    }
    // The ld/st wavefronts hold LDSM's and STSM's, so their instructions and bytes count too.
    const double inst = *ldst + collected_sum(counters, {"inst_ldsm", "inst_stsm"});
    const auto intensity = safe_ratio(inst, *wavefronts);
    if (inst <= 0 || !intensity) {
        missing.push_back("walls.shared: no shared load/store instructions or wavefronts");
        return std::nullopt;
    }
    auto bytes = counter_sum(counters, {"bytes_shared_ld", "bytes_shared_st"});
    if (bytes) {
        *bytes += collected_sum(counters, {"bytes_shared_ldsm", "bytes_shared_stsm"});
    }
    const Requested req =
        requested(counters, inst, bytes, "walls.shared", "bytes_shared_ld/st", missing);
    const double ideal = ideal_transactions(inst, req.bytes, k_wavefront_bytes);
    SharedWall w;
    w.intensity = *intensity;
    w.conflict_ways = conflict_ways(*wavefronts, ideal);
    w.conflict_free_intensity = inst / ideal;
    w.access_bytes = req.access_bytes;
    return w;
}

std::string global_label(const GlobalWall& wall) {
    if (wall.pattern == "stride-0") {
        return wall.pattern;
    }
    if (!wall.access_bytes) {
        return wall.pattern + " 4B?"; // the width was assumed, not measured (issue #33 item 5)
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s %.2gB", wall.pattern.c_str(), *wall.access_bytes);
    return buf;
}

} // namespace irf::model
