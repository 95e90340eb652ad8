// SPDX-License-Identifier: Apache-2.0
// Checks on YAML text before a document is built from it (hostile ceilings files).
#pragma once

#include <string>

namespace irf::config {

/// Throws CeilingsError ("<origin>:<line>: (document): YAML aliases ... are not allowed") when
/// `text` uses an alias (*name); lets YAML::Exception through on a syntax error. Linear time.
void refuse_yaml_aliases(const std::string& text, const std::string& origin);

} // namespace irf::config
