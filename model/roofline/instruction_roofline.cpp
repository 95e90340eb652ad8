// SPDX-License-Identifier: Apache-2.0
// Instruction Roofline Model (docs/model.md: IRM section 3.1-3.2, Eq. 2).
#include "model/roofline/instruction_roofline.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "model/roofline/counters.hpp"

namespace irf::model {

double peak_warp_gips(int sms, int schedulers_per_sm, double clock_ghz) {
    // Section 3.1: each scheduler issues one warp instruction per cycle.
    return static_cast<double>(sms) * static_cast<double>(schedulers_per_sm) * clock_ghz;
}

double warp_gips_of(const config::Ceilings& ceilings) {
    if (ceilings.warp_gips.value > 0) {
        return ceilings.warp_gips.value;
    }
    return peak_warp_gips(ceilings.gpu.sms, ceilings.gpu.schedulers_per_sm,
                          ceilings.gpu.boost_clock_mhz / 1000.0);
}

std::optional<double> gips(double instructions, double time_ns) {
    return safe_ratio(instructions, time_ns);
}

std::optional<double> instruction_intensity(double warp_instructions, double transactions) {
    return safe_ratio(warp_instructions, transactions);
}

double roofline_gips(double ii, double peak_gips, double gtxn_per_s) {
    return std::min(peak_gips, ii * gtxn_per_s);
}

std::optional<double> l1_sectors(const Counters& counters) {
    const auto ldst = counter_sum(counters, {"sectors_global_ld", "sectors_global_st"});
    if (!ldst) {
        return std::nullopt;
    }
    // Local memory is optional (an import may lack it): the level counts the parts present and
    // instruction_roofline names the rest "not collected".
    return *ldst +
           collected_sum(counters, {"sectors_local_ld", "sectors_local_st", "sectors_global_atom",
                                    "sectors_global_red", "sectors_ldgsts"});
}

std::optional<double> shared_wavefronts(const Counters& counters) {
    const auto ldst = counter_sum(counters, {"wavefronts_shared_ld", "wavefronts_shared_st"});
    if (!ldst) {
        return std::nullopt;
    }
    return *ldst + collected_sum(counters, {"wavefronts_shared_atom", "wavefronts_shared_ldgsts"});
}

std::optional<double> l1_transactions(const Counters& counters) {
    const auto sectors = l1_sectors(counters);
    const auto shared = shared_wavefronts(counters);
    if (!sectors || !shared) {
        return std::nullopt;
    }
    return *sectors + 4.0 * *shared;
}

std::optional<double> l2_transactions(const Counters& counters) {
    const auto read_write = counter_sum(counters, {"l2_sectors_read", "l2_sectors_write"});
    if (!read_write) {
        return std::nullopt;
    }
    return *read_write + collected_sum(counters, {"l2_sectors_atom", "l2_sectors_red"});
}

std::optional<double> hbm_transactions(const Counters& counters) {
    return counter_sum(counters, {"dram_sectors_read", "dram_sectors_write"});
}

namespace {

std::optional<double>& level_of(PerLevel& p, const std::string& level) {
    return level == "l1" ? p.l1 : level == "l2" ? p.l2 : p.hbm;
}

struct Level {
    const char* name;
    std::optional<double> transactions;
    std::optional<double> gtxn;
    std::optional<double>* ii;
    std::optional<double>* roof;
    const char* counters;
};

// Fills each level's intensity and roofline, sets r.bound and r.roofline_pct to the lowest
// ceiling; false (undecided) when a level's counters or ceiling are absent.
bool place_levels(std::array<Level, 3>& levels, double inst, double peak, double point_gips,
                  IrmResult& r, std::vector<std::string>& missing) {
    r.bound = "issue";
    double limit = peak;
    bool decided = true;
    for (Level& level : levels) {
        if (!level.transactions) {
            missing.push_back(std::string("irm.ii.") + level.name + ": counters absent (" +
                              level.counters + ")");
            decided = false;
            continue;
        }
        *level.ii = instruction_intensity(inst, *level.transactions);
        if (!*level.ii) {
            continue; // no traffic at this level: it cannot bound the kernel
        }
        if (!level.gtxn || *level.gtxn <= 0) {
            missing.push_back(std::string("irm.roofline_gips.") + level.name +
                              ": no bandwidth ceiling for this level");
            decided = false;
            continue;
        }
        *level.roof = roofline_gips(**level.ii, peak, *level.gtxn);
        // The bound is the lowest ceiling; the issue rate wins ties (the kernel is at the ridge).
        if (**level.roof < limit) {
            limit = **level.roof;
            r.bound = level.name;
        }
    }
    r.roofline_pct = 100.0 * point_gips / limit;
    return decided;
}

} // namespace

namespace {

// Optional parts of a level that were not collected (an imported export, docs/import.md): the
// level counts the parts present, and says which it could not.
void note_not_collected(const Counters& counters, std::vector<std::string>& missing) {
    const std::string local = absent_counters(counters, {"sectors_local_ld", "sectors_local_st"});
    if (!local.empty() && l1_sectors(counters)) {
        missing.push_back("irm.ii.l1: not collected: " + local + " (counted as 0)");
    }
    const std::string atomics = absent_counters(counters, {"l2_sectors_atom", "l2_sectors_red"});
    if (!atomics.empty() && l2_transactions(counters)) {
        missing.push_back("irm.ii.l2: not collected: " + atomics + " (counted as 0)");
    }
}

// The instructions the point is placed with: warp instructions, else IRM 3.2's thread-based
// count (inst_thread / 32), with a reason; nullopt (and a reason) when neither is usable.
std::optional<double> point_instructions(const Counters& counters,
                                         std::vector<std::string>& missing) {
    const auto warp = counter(counters, "inst_warp");
    const auto thread = counter(counters, "inst_thread");
    if (!warp && !thread) {
        missing.push_back("irm: counters absent: inst_warp, inst_thread");
        return std::nullopt;
    }
    const double inst = warp ? *warp : *thread / 32.0;
    if (inst <= 0) {
        missing.push_back("irm: kernel executed 0 warp instructions");
        return std::nullopt;
    }
    if (!warp) {
        missing.push_back("irm.gips_warp: inst_warp absent: the point is thread-based "
                          "(inst_thread / 32, IRM 3.2)");
    }
    return inst;
}

} // namespace

std::optional<IrmResult> instruction_roofline(const Counters& counters, const IrmCeilings& ceilings,
                                              std::vector<std::string>& missing) {
    const auto time = counter(counters, "time_ns");
    if (time && *time <= 0) {
        missing.push_back("irm: kernel time is 0 ns");
        return std::nullopt;
    }
    const auto inst = point_instructions(counters, missing);
    if (!inst) {
        return std::nullopt;
    }
    if (ceilings.warp_gips <= 0) {
        missing.push_back("irm: no peak warp GIPS in the ceilings");
        return std::nullopt;
    }
    // Without a duration the intensities stand alone: GIPS and the bound are unknown (NaN is
    // written as JSON null).
    const double unknown = std::numeric_limits<double>::quiet_NaN();
    const auto warp = counter(counters, "inst_warp");
    const auto thread = counter(counters, "inst_thread");
    IrmResult r;
    r.gips_warp = warp && time ? *warp / *time : unknown;
    r.gips_thread = thread && time ? *thread / 32.0 / *time : unknown;
    std::array<Level, 3> levels{{
        {"l1", l1_transactions(counters), ceilings.gtxn_per_s.l1, &r.ii.l1, &r.roofline_gips.l1,
         "sectors_global_ld/st, wavefronts_shared_ld/st"},
        {"l2", l2_transactions(counters), ceilings.gtxn_per_s.l2, &r.ii.l2, &r.roofline_gips.l2,
         "l2_sectors_read/write"},
        {"hbm", hbm_transactions(counters), ceilings.gtxn_per_s.hbm, &r.ii.hbm,
         &r.roofline_gips.hbm, "dram_sectors_read/write"},
    }};
    note_not_collected(counters, missing);
    const double point_gips = time ? *inst / *time : unknown;
    const bool decided = place_levels(levels, *inst, ceilings.warp_gips, point_gips, r, missing);
    if (thread) {
        // Section 3.2 measures intensity with inst_executed_thread / 32: predication moves the
        // point diagonally (both GIPS and intensity scale by it); the warp value stays in `ii`.
        for (const Level& level : levels) {
            if (*level.ii) {
                level_of(r.ii_thread, level.name) =
                    instruction_intensity(*thread / 32.0, *level.transactions);
            }
        }
    }
    if (!warp) {
        r.ii = PerLevel{}; // the intensities above are thread-based: only ii_thread holds them
    }
    if (!time) {
        missing.push_back("irm.gips: time_ns absent: intensities without GIPS or bound");
        r.bound.clear();
        r.roofline_pct = 0;
    } else if (!decided) {
        // A level we could not see might be the lower ceiling: no bound rather than a wrong one.
        missing.push_back("irm.bound: not decided while a level's counters or ceiling are absent");
        r.bound.clear();
        r.roofline_pct = 0;
    }
    return r;
}

} // namespace irf::model
