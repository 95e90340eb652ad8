// SPDX-License-Identifier: Apache-2.0
// Internal to config/: the key sets and unit rules of irf.ceilings/v1, shared by the parser,
// the validator and the writer so the three cannot drift apart.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "config/ceilings_yaml.hpp"

namespace irf::config::rules {

/// Dotted key path ("ceilings.hbm_gbs.value") -> 1-based line where the parser saw it.
using LineMap = std::map<std::string, int>;

/// Keys allowed under gpu.
[[nodiscard]] const std::vector<std::string>& gpu_keys();
/// Keys allowed under ceilings.pipe_gips.
[[nodiscard]] const std::vector<std::string>& pipe_keys();
/// Keys allowed under ceilings.gflops.
[[nodiscard]] const std::vector<std::string>& gflops_keys();
/// Input types allowed under ceilings.tensor_tflops and tensor_sparse_tflops.
[[nodiscard]] const std::vector<std::string>& tensor_keys();
/// Keys allowed in the environment block of a measured file.
[[nodiscard]] const std::vector<std::string>& environment_keys();
/// Units accepted anywhere (for ceilings.details).
[[nodiscard]] const std::vector<std::string>& known_units();

/// The unit a value must carry: section is "warp_gips", "pipe_gips", "gflops", "tensor",
/// "memory" or "details"; key is the entry name. "" = any of known_units().
[[nodiscard]] std::string required_unit(const std::string& section, const std::string& key);

/// Divisor turning SMs x per-SM-per-clock rate x clock_mhz into `unit` (e.g. 1e3 for GB/s).
[[nodiscard]] double per_clock_scale(const std::string& unit);

/// True when `name` is one of `list`.
[[nodiscard]] bool contains(const std::vector<std::string>& list, const std::string& name);

/// Parses a provenance name; false when unknown.
[[nodiscard]] bool parse_provenance(const std::string& text, Provenance& out);

/// Cross-field validation; errors cite lines from `lines` when the key is found there.
void validate(const Ceilings& ceilings, const std::string& origin, const LineMap& lines);

/// Formats a double with the fewest digits that read back to the same value.
[[nodiscard]] std::string format_double(double value);

/// The same error with line breaks turned into spaces: errors are one line even when a key or
/// value in the file contains a line break.
[[nodiscard]] CeilingsError one_line(const CeilingsError& error);

} // namespace irf::config::rules
