// SPDX-License-Identifier: Apache-2.0
// CUPTI result -> readable text; internal to intercept/cupti (includes cupti.h).
#pragma once

#include <cstddef>
#include <string>

#include <cupti.h>

namespace irf::intercept::cupti {

/// "CUPTI_ERROR_X (n)" for a CUPTI result; never throws.
std::string error_text(CUptiResult result) noexcept;

/// "call failed: CUPTI_ERROR_X (n)".
std::string call_error(const char* call, CUptiResult result) noexcept;

} // namespace irf::intercept::cupti

namespace irf::intercept::cupti {

/// A zeroed CUPTI params struct with structSize set (CUPTI's struct-versioning convention).
template <class Params> Params make_params(std::size_t struct_size) noexcept {
    Params params{};
    params.structSize = struct_size;
    return params;
}

} // namespace irf::intercept::cupti
