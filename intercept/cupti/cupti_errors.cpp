// SPDX-License-Identifier: Apache-2.0
// CUPTI result -> readable text.
#include "intercept/cupti/cupti_errors.hpp"

namespace irf::intercept::cupti {

std::string error_text(CUptiResult result) noexcept {
    try {
        const char* name = nullptr;
        if (cuptiGetResultString(result, &name) != CUPTI_SUCCESS || name == nullptr) {
            name = "CUPTI_ERROR_UNRECOGNIZED";
        }
        return std::string(name) + " (" + std::to_string(static_cast<int>(result)) + ")";
    } catch (...) {
        return "CUPTI error";
    }
}

std::string call_error(const char* call, CUptiResult result) noexcept {
    try {
        return std::string(call) + " failed: " + error_text(result);
    } catch (...) {
        return "CUPTI call failed";
    }
}

} // namespace irf::intercept::cupti
