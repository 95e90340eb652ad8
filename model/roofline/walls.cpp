// SPDX-License-Identifier: Apache-2.0
// Global and shared memory walls (docs/model.md: IRM 3.1-3.2).
#include "model/roofline/walls.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/roofline/counters.hpp"
#include "model/roofline/predication.hpp"

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

// Bytes requested by warp accesses: the counted bytes, or 4-byte words for full warps when the
// bytes were not collected (a reason then names what is missing), and the width per active
// thread of all of them, of the loads and of the stores.
struct Requested {
    double bytes = 0;
    std::optional<double> access_bytes, access_bytes_ld, access_bytes_st;
};

// Threads active per warp ld/st, as a share of 32: the SASS memory class's thread instructions
// over 32 x the warp ld/st instructions (global, local, shared, LDSM, STSM, LDGSTS), at most 1
// (the class also holds atomics, which the warp count leaves out). Without the class, the
// kernel's predication: the ld/st are then assumed predicated like the rest; 1 when that is
// unknown too (its own verdict says why). docs/model.md, "Walls and predication".
double ldst_active_share(const Counters& counters) {
    const auto threads = counter(counters, "thread_class_memory");
    const auto warps = counter_sum(counters, {"inst_global_ld", "inst_global_st", "inst_local_ld",
                                              "inst_local_st", "inst_shared_ld", "inst_shared_st"});
    if (threads && warps) {
        const double all =
            *warps + collected_sum(counters, {"inst_ldsm", "inst_stsm", "inst_ldgsts"});
        if (const auto share = safe_ratio(*threads, all * k_warp); share && *share > 0) {
            return std::min(*share, 1.0);
        }
    }
    std::vector<std::string> said_by_the_predication_verdict;
    return predication(counters, said_by_the_predication_verdict).value_or(1.0);
}

// Bytes per active thread of `inst` warp accesses that requested `bytes`.
std::optional<double> width(std::optional<double> bytes, std::optional<double> inst, double share) {
    if (!bytes || !inst) {
        return std::nullopt;
    }
    return safe_ratio(*bytes, *inst * k_warp * share);
}

// One direction's counters: warp instructions and requested bytes of loads and of stores.
struct Directions {
    std::optional<double> inst_ld, inst_st, bytes_ld, bytes_st;
};

Requested requested(const Counters& counters, double inst, const Directions& d,
                    const std::string& what, const std::string& names,
                    std::vector<std::string>& missing) {
    if (!d.bytes_ld || !d.bytes_st) {
        missing.push_back(what + ".access_bytes: requested bytes not collected (" + names +
                          "); the wall assumes 4-byte words");
        return {inst * k_warp * k_assumed_word, std::nullopt, std::nullopt, std::nullopt};
    }
    const double share = ldst_active_share(counters);
    const double bytes = *d.bytes_ld + *d.bytes_st;
    // A direction without instructions has no width (a load-only kernel stores nothing).
    const auto positive = [](std::optional<double> n) {
        return n && *n > 0 ? n : std::optional<double>();
    };
    return {bytes, safe_ratio(bytes, inst * k_warp * share),
            width(d.bytes_ld, positive(d.inst_ld), share),
            width(d.bytes_st, positive(d.inst_st), share)};
}

} // namespace

std::string global_pattern(double intensity, double unit_intensity,
                           std::optional<double> access_bytes) {
    // Fewer requested bytes than active threads: threads read the same bytes. GH100 counts each
    // address of a warp access once, so a broadcast is on its bytes' wall, not right of it
    // (docs/validation/h100-known-answers.md, stride-0).
    if (access_bytes && *access_bytes < 1.0 / s_tolerance) {
        return intensity >= 1.0 / s_tolerance ? "stride-0" : "broadcast";
    }
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
    const Directions d{counter(counters, "inst_global_ld"), counter(counters, "inst_global_st"),
                       counter(counters, "bytes_global_ld"), counter(counters, "bytes_global_st")};
    const Requested req =
        requested(counters, *inst, d, "walls.global", "bytes_global_ld/st", missing);
    GlobalWall w;
    w.intensity = *intensity;
    w.unit_intensity = *inst / ideal_transactions(*inst, req.bytes, k_sector_bytes);
    w.access_bytes = req.access_bytes;
    w.access_bytes_ld = req.access_bytes_ld;
    w.access_bytes_st = req.access_bytes_st;
    w.pattern = global_pattern(w.intensity, w.unit_intensity, w.access_bytes);
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
    // LDSM loads, STSM stores.
    const auto plus = [&counters](std::optional<double> v, const char* more) {
        return v ? std::optional<double>(*v + collected_sum(counters, {more})) : v;
    };
    const Directions d{plus(counter(counters, "inst_shared_ld"), "inst_ldsm"),
                       plus(counter(counters, "inst_shared_st"), "inst_stsm"),
                       plus(counter(counters, "bytes_shared_ld"), "bytes_shared_ldsm"),
                       plus(counter(counters, "bytes_shared_st"), "bytes_shared_stsm")};
    // The file's own bank-conflict counts win over the width assumption: the conflict-free
    // wavefronts are those measured less the extra ones the conflicts cost (issue 53 item 5).
    const auto conflicts =
        counter_sum(counters, {"bank_conflicts_shared_ld", "bank_conflicts_shared_st"});
    std::vector<std::string> width_missing;
    const Requested req = requested(counters, inst, d, "walls.shared", "bytes_shared_ld/st",
                                    conflicts ? width_missing : missing);
    const double ideal = conflicts && *conflicts < *wavefronts
                             ? *wavefronts - *conflicts
                             : ideal_transactions(inst, req.bytes, k_wavefront_bytes);
    SharedWall w;
    w.conflicts_measured = conflicts && *conflicts < *wavefronts;
    w.intensity = *intensity;
    w.conflict_ways = conflict_ways(*wavefronts, ideal);
    w.conflict_free_intensity = inst / ideal;
    w.access_bytes = req.access_bytes;
    w.access_bytes_ld = req.access_bytes_ld;
    w.access_bytes_st = req.access_bytes_st;
    return w;
}

std::string access_width(std::optional<double> combined, std::optional<double> ld,
                         std::optional<double> st) {
    char buf[48];
    // Loads and stores of different widths (a 4 B -> 2 B cast) are not averaged into "3B".
    if (ld && st && std::fabs(*ld - *st) > 1e-9 * std::max(*ld, *st)) {
        std::snprintf(buf, sizeof buf, "%.2gB/%.2gB", *ld, *st);
        return buf;
    }
    const std::optional<double> one = ld ? ld : st ? st : combined;
    if (!one) {
        return "";
    }
    std::snprintf(buf, sizeof buf, "%.2gB", *one);
    return buf;
}

std::string global_label(const GlobalWall& wall) {
    if (wall.pattern == "stride-0") {
        return wall.pattern;
    }
    const std::string w =
        access_width(wall.access_bytes, wall.access_bytes_ld, wall.access_bytes_st);
    if (w.empty()) {
        return wall.pattern + " 4B?"; // the width was assumed, not measured (issue #33 item 5)
    }
    return wall.pattern + " " + w;
}

} // namespace irf::model
