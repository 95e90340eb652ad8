// SPDX-License-Identifier: Apache-2.0
// Instruction Roofline Model (docs/model.md: IRM section 3.1-3.2, Eq. 2).
#include "model/instruction_roofline.hpp"

#include <algorithm>
#include <array>

#include "model/counters.hpp"

namespace irf::model {

double peak_warp_gips(int sms, int schedulers_per_sm, double clock_ghz) {
    // Section 3.1: each scheduler issues one warp instruction per cycle.
    return static_cast<double>(sms) * static_cast<double>(schedulers_per_sm) * clock_ghz;
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
    const auto ldst = counter_sum(counters, {"sectors_global_ld", "sectors_global_st",
                                             "sectors_local_ld", "sectors_local_st"});
    if (!ldst) {
        return std::nullopt;
    }
    return *ldst +
           collected_sum(counters, {"sectors_global_atom", "sectors_global_red", "sectors_ldgsts"});
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
    return counter_sum(
        counters, {"l2_sectors_read", "l2_sectors_write", "l2_sectors_atom", "l2_sectors_red"});
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
bool place_levels(std::array<Level, 3>& levels, double inst, double peak, IrmResult& r,
                  std::vector<std::string>& missing) {
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
    r.roofline_pct = 100.0 * r.gips_warp / limit;
    return decided;
}

} // namespace

std::optional<IrmResult> instruction_roofline(const Counters& counters, const IrmCeilings& ceilings,
                                              std::vector<std::string>& missing) {
    const auto inst = counter(counters, "inst_warp");
    const auto time = counter(counters, "time_ns");
    if (!inst || !time) {
        missing.push_back("irm: counters absent: " +
                          absent_counters(counters, {"inst_warp", "time_ns"}));
        return std::nullopt;
    }
    if (*time <= 0 || *inst <= 0) {
        missing.push_back(*time <= 0 ? "irm: kernel time is 0 ns"
                                     : "irm: kernel executed 0 warp instructions");
        return std::nullopt;
    }
    if (ceilings.warp_gips <= 0) {
        missing.push_back("irm: no peak warp GIPS in the ceilings");
        return std::nullopt;
    }
    IrmResult r;
    r.gips_warp = *inst / *time;
    if (const auto thread = counter(counters, "inst_thread")) {
        r.gips_thread = *thread / 32.0 / *time;
    }
    std::array<Level, 3> levels{{
        {"l1", l1_transactions(counters), ceilings.gtxn_per_s.l1, &r.ii.l1, &r.roofline_gips.l1,
         "sectors_global_ld/st, sectors_local_ld/st, wavefronts_shared_ld/st"},
        {"l2", l2_transactions(counters), ceilings.gtxn_per_s.l2, &r.ii.l2, &r.roofline_gips.l2,
         "l2_sectors_read/write/atom/red"},
        {"hbm", hbm_transactions(counters), ceilings.gtxn_per_s.hbm, &r.ii.hbm,
         &r.roofline_gips.hbm, "dram_sectors_read/write"},
    }};
    const bool decided = place_levels(levels, *inst, ceilings.warp_gips, r, missing);
    if (const auto thread = counter(counters, "inst_thread")) {
        // Section 3.2 measures intensity with inst_executed_thread / 32: predication moves the
        // point diagonally (both GIPS and intensity scale by it); the warp value stays in `ii`.
        for (const Level& level : levels) {
            if (*level.ii) {
                level_of(r.ii_thread, level.name) =
                    instruction_intensity(*thread / 32.0, *level.transactions);
            }
        }
    }
    if (!decided) {
        // A level we could not see might be the lower ceiling: no bound rather than a wrong one.
        missing.push_back("irm.bound: not decided while a level's counters or ceiling are absent");
        r.bound.clear();
        r.roofline_pct = 0;
        return r;
    }
    return r;
}

} // namespace irf::model
