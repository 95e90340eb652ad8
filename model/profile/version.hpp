// SPDX-License-Identifier: Apache-2.0
// irf's version string, recorded in every profile.
#pragma once

namespace irf::model {

/// The irf release version, e.g. "0.1.0".
[[nodiscard]] const char* version();

} // namespace irf::model
