// SPDX-License-Identifier: Apache-2.0
// The SM clock a kernel ran at, and ceilings at that clock (docs/model.md, "SM clock"; IRM
// section 3: the peak issue rate is SMs x schedulers x clock).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// The kernel's measured SM clock (counter clock_hz) as a fraction of the source's boost clock,
/// at most 1; nullopt when the clock or the boost is unknown, or the clock is implausible
/// (under 100 MHz or above 1.1 x the boost).
[[nodiscard]] std::optional<double> clock_fraction(const Counters& counters,
                                                   const config::GpuIdentity& source);

/// A copy of `ceilings` with its SM-side ceilings (issue, pipes, datapaths, FLOP/s, tensor, L1,
/// shared) at `fraction` x the boost clock: each value x that clock / the clock it assumes, at
/// most x 1 for a value whose own clock_mhz is below the boost (tensor peaks quoted below it).
/// L2 and HBM keep theirs. A fraction above 1 is a part running above its boost figure.
[[nodiscard]] config::Ceilings at_clock_fraction(const config::Ceilings& ceilings, double fraction);

/// The kernel's measured SM clock in MHz (counter clock_hz), at most the higher of the boost and
/// the sustained_high clock; nullopt when absent or implausible (under 100 MHz or above 1.1 x
/// that higher clock).
[[nodiscard]] std::optional<double> measured_clock_mhz(const Counters& counters,
                                                       const config::Ceilings& source);

/// The clock `k`'s source ceilings are taken at: measured_clock_mhz, else the source's sustained
/// clock (the boost without one); a note to `notes` when it is not the boost.
[[nodiscard]] double source_clock_mhz(const KernelRecord& k, const config::Ceilings& source,
                                      std::vector<std::string>& notes);

/// The clock a kernel runs at on `target` when it ran at `source_mhz` on `source`: the target's
/// sustained clock x source_mhz / the source's sustained clock (a kernel that holds its GPU
/// below its typical clock under load does so on the target too; the boost stands in for a
/// sustained clock a file lacks), at most the target's sustained_high, else its boost.
[[nodiscard]] double target_clock_mhz(double source_mhz, const config::Ceilings& source,
                                      const config::Ceilings& target);

/// Widens `p` by the target's sustained clock spread when its binding resource on the target is
/// on the SM side (issue, flops, l1): the point at the spread's high and low clocks. Confidence
/// becomes low above a spread of 1.25, with a note.
void widen_by_clock_spread(const config::Ceilings& target, double target_mhz, Projection& p);

} // namespace irf::model
