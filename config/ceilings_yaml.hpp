// SPDX-License-Identifier: Apache-2.0
// The irf.ceilings/v1 YAML schema: strict parser + validator, and the writer irf-calibrate uses.
#pragma once

#include <stdexcept>
#include <string>

#include "config/ceilings.hpp"

namespace irf::config {

/// Schema name every ceilings file must declare in its `schema:` key.
inline constexpr const char* k_ceilings_schema = "irf.ceilings/v1";

/// A ceilings file (or target list) that cannot be used; what() is one line
/// "FILE:LINE: KEY: problem" (LINE omitted when there is no position to report).
class CeilingsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses and validates an irf.ceilings/v1 document; `origin` names it in errors and becomes
/// Ceilings::source. Throws CeilingsError on unknown keys, wrong units or impossible values.
[[nodiscard]] Ceilings parse_ceilings_yaml(const std::string& text, const std::string& origin);

/// Reads `path` (bounded size) and parses it; Ceilings::source is the path.
[[nodiscard]] Ceilings load_ceilings_file(const std::string& path);

/// Checks the cross-field rules (warp GIPS = SMs x schedulers x clock, sparse >= dense, ...) on
/// an in-memory value; throws CeilingsError naming `origin` and the key. parse_* calls it.
void validate_ceilings(const Ceilings& ceilings, const std::string& origin);

/// Serialises to irf.ceilings/v1 YAML; parse_ceilings_yaml(to_yaml(c)) gives back `c` (except
/// `source`, which names where the text came from).
[[nodiscard]] std::string to_yaml(const Ceilings& ceilings);

} // namespace irf::config
