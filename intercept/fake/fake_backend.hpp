// SPDX-License-Identifier: Apache-2.0
// A scripted backend for tests (IRF_BACKEND=fake:FILE): plays launches from a JSON file through
// the LaunchSink exactly as the CUPTI backend would, so env -> intercept -> model -> files runs
// without a GPU. Script format: docs/configuration.md, section "Fake backend".
#pragma once

#include <memory>
#include <string>

#include "intercept/backend.hpp"

namespace irf::intercept {

/// A backend that reads `script_path` at start(); a malformed script makes start() log one line
/// naming the file and the key and return false. Never null.
[[nodiscard]] std::unique_ptr<Backend> make_fake_backend(const std::string& script_path);

} // namespace irf::intercept
