// SPDX-License-Identifier: Apache-2.0
// The gpu and environment blocks of a measured ceilings file, and its completion/validation.
#pragma once

#include <string>
#include <vector>

#include "calibrate/device_info.hpp"
#include "config/ceilings.hpp"

namespace irf::calibrate {

/// Ceilings with the device's identity (name, cc, SMs, clocks, L2, memory) and the run's
/// environment; chip, aliases and memory type come from the matching database entry in `dirs`
/// when there is one, and the key is "<entry>.measured" (else a slug of the name).
[[nodiscard]] config::Ceilings identity(const DeviceInfo& device,
                                        const std::vector<std::string>& dirs,
                                        const std::string& tool, bool quick);

/// Fills what the run did not measure but the schema requires (warp GIPS: derived from SMs x 4
/// x max clock, marked derived), demotes measurements the schema would reject as impossible
/// (an issue or pipe rate above the issue peak, an L2 rate not above DRAM) to `details` or to
/// the derived value, and validates. Returns one warning line per demotion; throws
/// config::CeilingsError if the result is still invalid.
[[nodiscard]] std::vector<std::string> complete(config::Ceilings& ceilings,
                                                const std::string& date);

/// Lower-case letters, digits and '-' only: "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3".
[[nodiscard]] std::string slug(const std::string& name);

/// Today's date (UTC) as YYYY-MM-DD, and the time as YYYY-MM-DDTHH:MM:SSZ.
[[nodiscard]] std::string utc_date();
[[nodiscard]] std::string utc_timestamp();

} // namespace irf::calibrate
