// SPDX-License-Identifier: Apache-2.0
// JSON reader and writer for irf.profile/v1 (docs/output-schema.md), analysis keys included.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "model/profile.hpp"

namespace irf::model {

/// A profile document that does not follow irf.profile/v1. The message is one line naming the
/// JSON path and what is wrong, e.g. "kernels[3].launches: expected a number".
class FormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The JSON form of a profile (schema irf.profile/v1). Absent optional values are omitted and
/// non-finite numbers are never written.
[[nodiscard]] nlohmann::json profile_to_json(const Profile& profile);

/// Parses a profile, with or without `analysis`; throws FormatError on any other schema or a
/// value of the wrong type.
[[nodiscard]] Profile profile_from_json(const nlohmann::json& json);

/// Reads and parses a profile file (bounded read); FormatError messages start with the path.
[[nodiscard]] Profile load_profile(const std::string& path);

/// Pretty JSON (2-space indent, trailing newline); bytes that are not UTF-8 become U+FFFD.
[[nodiscard]] std::string dump_json(const nlohmann::json& document);

/// Pretty JSON (2-space indent, deterministic key order, trailing newline) of dump_json.
[[nodiscard]] std::string dump_profile(const Profile& profile);

} // namespace irf::model
