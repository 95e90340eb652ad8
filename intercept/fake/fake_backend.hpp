// SPDX-License-Identifier: Apache-2.0
// A scripted backend for tests (IRF_BACKEND=fake:FILE): plays launches from a JSON file through
// the LaunchSink exactly as the CUPTI backend would, so env -> intercept -> model -> files runs
// without a GPU. Script format: docs/configuration.md, section "Fake backend".
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "intercept/backend.hpp"

namespace irf::intercept {

/// What the configuration asks of the fake backend (as CuptiOptions of the CUPTI backend).
struct FakeOptions {
    /// IRF_GRAPH_TIMING=graphs:N: each graph's first N replays traced by node, later ones by
    /// graph-level records; 0: every replay by node (IRF_GRAPH_TIMING=nodes).
    std::uint32_t graph_node_replays = 0;
};

/// A backend that reads `script_path` at start(); a malformed script makes start() log one line
/// naming the file and the key and return false. Never null.
[[nodiscard]] std::unique_ptr<Backend> make_fake_backend(const std::string& script_path,
                                                         const FakeOptions& options = {});

} // namespace irf::intercept
