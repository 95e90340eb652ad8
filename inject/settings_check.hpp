// SPDX-License-Identifier: Apache-2.0
// At load: the settings that need the file system, checked before any GPU or CUPTI check.
#pragma once

#include "inject/outputs.hpp"

namespace irf::inject {

/// Checks IRF_CEILINGS (loads), IRF_TARGETS (every entry resolves) and IRF_OUTPUT (its directory
/// exists and is writable). Each bad one gets one "[irf] error" line naming the variable, added
/// to `run.config_errors`; IRF_CEILINGS and IRF_TARGETS then fall back to their defaults, as
/// they would at exit. Never throws.
void check_settings_at_start(RunInfo& run) noexcept;

} // namespace irf::inject
