// SPDX-License-Identifier: Apache-2.0
// The checks of a known-answer case (tests/gpu/expected.json) on a profile's kernel record, shared
// by the gpu test (a run under libirf.so) and the replay of the H100 recording (no GPU).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/gpu/expected_cases.hpp"

namespace irf::test {

/// The kernel records of `profile` whose demangled name contains `needle`.
[[nodiscard]] std::vector<nlohmann::json> matching_kernels(const nlohmann::json& profile,
                                                           const std::string& needle);

/// True when the profile says counter collection was refused for lack of privileges.
[[nodiscard]] bool counters_not_permitted(const nlohmann::json& profile);

/// Whether the profile's GPU is at least `min_cc` (major, minor); true when the profile does not
/// say (the counts are then checked and a mismatch shows).
[[nodiscard]] bool cc_at_least(const nlohmann::json& profile, const std::pair<int, int>& min_cc);

/// Adds a gtest failure for each per-launch count of `kernel` off `c`'s counts (within
/// c.tolerance; 0 exactly), approx ratios and instruction ranges, and for more thread
/// instructions than 32 lanes of the warp instructions.
void check_counts(const ExpectedCase& c, const nlohmann::json& kernel);

/// Adds a gtest failure for each verdict of `kernel`'s analysis off `c.verdict`: global pattern
/// and intensity, shared conflict ways, predication range, bound, integer mix share.
void check_verdict(const ExpectedCase& c, const nlohmann::json& kernel);

} // namespace irf::test
