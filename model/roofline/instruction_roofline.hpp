// SPDX-License-Identifier: Apache-2.0
// Instruction Roofline Model (docs/model.md: IRM section 3.1-3.2, Eq. 2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// Machine ceilings of the Instruction Roofline: peak warp GIPS and GTXN/s per level.
struct IrmCeilings {
    double warp_gips = 0; ///< peak warp instructions per ns (= GIPS)
    PerLevel gtxn_per_s;  ///< 32-byte transactions per ns (= GTXN/s) at L1, L2, HBM
};

/// Peak warp GIPS = SMs x schedulers x 1 instruction/cycle x clock (section 3.1):
/// 80 x 4 x 1.53 GHz = 489.6 on V100.
[[nodiscard]] double peak_warp_gips(int sms, int schedulers_per_sm, double clock_ghz);

/// Peak warp GIPS of a ceilings entry: its warp_gips value, else SMs x schedulers x boost clock.
[[nodiscard]] double warp_gips_of(const config::Ceilings& ceilings);

/// Performance in GIPS (Eq. 2): instructions / (1e9 x seconds) = instructions / nanoseconds;
/// nullopt when time is not positive.
[[nodiscard]] std::optional<double> gips(double instructions, double time_ns);

/// Instruction intensity: warp instructions per 32-byte transaction (section 3.1); nullopt when
/// there are no transactions (the level does not bound the kernel).
[[nodiscard]] std::optional<double> instruction_intensity(double warp_instructions,
                                                          double transactions);

/// The Instruction Roofline at intensity `ii` (Eq. 2): min(peak GIPS, ii x GTXN/s).
[[nodiscard]] double roofline_gips(double ii, double peak_gips, double gtxn_per_s);

/// L1 sectors: global + local ld/st sectors, plus global atomic, reduction and LDGSTS sectors
/// where collected (issue #18 item 6); nullopt when a ld/st sector counter is absent.
[[nodiscard]] std::optional<double> l1_sectors(const Counters& counters);

/// Shared wavefronts: ld (with LDSM) + st (with STSM), plus shared atomic and LDGSTS wavefronts
/// where collected; nullopt when a ld/st wavefront counter is absent.
[[nodiscard]] std::optional<double> shared_wavefronts(const Counters& counters);

/// L1 transactions in 32-byte units: l1_sectors + 4 x shared_wavefronts (128 B each, section
/// 3.2); nullopt when either is.
[[nodiscard]] std::optional<double> l1_transactions(const Counters& counters);

/// L2 transactions: read + write + atom + red sectors; nullopt when any is absent.
[[nodiscard]] std::optional<double> l2_transactions(const Counters& counters);

/// HBM transactions: DRAM read + write sectors; nullopt when any is absent.
[[nodiscard]] std::optional<double> hbm_transactions(const Counters& counters);

/// The whole Instruction Roofline verdict of one kernel. Absent (with reasons appended to
/// `missing`) when time or warp instructions are absent or zero. A level without counters or
/// ceiling leaves the bound undecided ("" and roofline_pct 0, with a reason), since the level
/// it cannot see might be the limiting one; a level without traffic never bounds.
[[nodiscard]] std::optional<IrmResult> instruction_roofline(const Counters& counters,
                                                            const IrmCeilings& ceilings,
                                                            std::vector<std::string>& missing);

} // namespace irf::model
