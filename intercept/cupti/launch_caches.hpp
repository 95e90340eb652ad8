// SPDX-License-Identifier: Apache-2.0
// What the launching threads' caches (launch_caches.cpp) report for tests and benchmarks.
#pragma once

#include <cstdint>

namespace irf::intercept::cupti {

/// Function-attribute look-ups that missed the launching thread's table and went to the
/// backend's shared map under its lock (every backend of the process, since it started).
[[nodiscard]] std::uint64_t attribute_table_misses() noexcept;

} // namespace irf::intercept::cupti
