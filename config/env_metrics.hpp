// SPDX-License-Identifier: Apache-2.0
// IRF_METRICS and IRF_TENSOR_TYPES: the option table's parsers and shows (config/env.cpp).
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

} // namespace irf::config
