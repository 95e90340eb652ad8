// SPDX-License-Identifier: Apache-2.0
// Access to the process environment, behind a lookup function so tests can supply their own.
#pragma once

#include <functional>

namespace irf::common {

/// Looks up an environment variable; returns nullptr when unset.
using EnvLookup = std::function<const char*(const char*)>;

/// The value of `name` in the process environment (std::getenv), or nullptr when unset.
[[nodiscard]] const char* process_env(const char* name) noexcept;

} // namespace irf::common
