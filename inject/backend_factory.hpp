// SPDX-License-Identifier: Apache-2.0
// Creates the backend named by IRF_BACKEND, among those built into this libirf.so.
#pragma once

#include <memory>

#include "config/env.hpp"
#include "intercept/backend.hpp"

namespace irf::inject {

/// The backend for `config` (cupti, or fake:FILE in test builds); nullptr after logging one
/// line when that backend is not built in.
[[nodiscard]] std::unique_ptr<intercept::Backend> make_backend(const config::Config& config);

} // namespace irf::inject
