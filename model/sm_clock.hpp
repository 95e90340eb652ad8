// SPDX-License-Identifier: Apache-2.0
// The SM clock a kernel ran at, and ceilings at that clock (docs/model.md, "SM clock"; IRM
// section 3: the peak issue rate is SMs x schedulers x clock).
#pragma once

#include <optional>

#include "config/ceilings.hpp"
#include "model/profile.hpp"

namespace irf::model {

/// The kernel's measured SM clock (counter clock_hz) as a fraction of the source's boost clock,
/// at most 1; nullopt when the clock or the boost is unknown, or the clock is implausible
/// (under 100 MHz or above 1.1 x the boost).
[[nodiscard]] std::optional<double> clock_fraction(const Counters& counters,
                                                   const config::GpuIdentity& source);

/// A copy of `ceilings` with its SM-side ceilings (issue, pipes, FLOP/s, tensor, L1, shared) at
/// `fraction` x the boost clock: each value x min(1, that clock / the clock it assumes). L2 and
/// HBM keep theirs.
[[nodiscard]] config::Ceilings at_clock_fraction(const config::Ceilings& ceilings, double fraction);

} // namespace irf::model
