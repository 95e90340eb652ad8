// SPDX-License-Identifier: Apache-2.0
// IRF_METRICS, IRF_TENSOR_TYPES, IRF_REPLAY, IRF_TIMING, IRF_GRAPH_TIMING, IRF_DISABLE and
// IRF_FAST_INTERCEPT: the option table's parsers and shows (config/env.cpp).
#pragma once

#include <string>

#include "config/env.hpp"

namespace irf::config {

/// IRF_METRICS: `default`, `all`, or a comma list of `pipe_mix`, `tensor_types`.
bool apply_metrics(Config& c, const std::string& v, std::string& problem);

/// The effective IRF_METRICS.
[[nodiscard]] std::string show_metrics(const Config& c);

/// IRF_TENSOR_TYPES: `auto` (a second sample of tensor kernels) or `off`.
bool apply_tensor_types(Config& c, const std::string& v, std::string& problem);

/// The effective IRF_TENSOR_TYPES.
[[nodiscard]] std::string show_tensor_types(const Config& c);

/// IRF_REPLAY: `auto`, `kernel` or `launches`.
bool apply_replay(Config& c, const std::string& v, std::string& problem);

/// The effective IRF_REPLAY.
[[nodiscard]] std::string show_replay(const Config& c);

/// IRF_TIMING: `all`, `sampled` or `sampled:K:N` (K launches timed first, then 1 in N).
bool apply_timing(Config& c, const std::string& v, std::string& problem);

/// The effective IRF_TIMING (`sampled:K:N` with its numbers when sampled).
[[nodiscard]] std::string show_timing(const Config& c);

/// IRF_GRAPH_TIMING: `nodes`, `graphs` or `graphs:N` (N replays of each graph timed node by
/// node, then graph-level records only).
bool apply_graph_timing(Config& c, const std::string& v, std::string& problem);

/// The effective IRF_GRAPH_TIMING (`graphs:N` with its number).
[[nodiscard]] std::string show_graph_timing(const Config& c);

/// IRF_DISABLE: 1/true/yes/on or 0/false/no/off.
bool apply_disable(Config& c, const std::string& v, std::string& problem);

/// The effective IRF_DISABLE (`1` or `0`).
[[nodiscard]] std::string show_disable(const Config& c);

/// IRF_FAST_INTERCEPT: as IRF_DISABLE's values.
bool apply_fast_intercept(Config& c, const std::string& v, std::string& problem);

/// The effective IRF_FAST_INTERCEPT (`1` or `0`).
[[nodiscard]] std::string show_fast_intercept(const Config& c);

} // namespace irf::config
