// SPDX-License-Identifier: Apache-2.0
// The process environment.
#include "common/environment.hpp"

#include <cstdlib>

namespace irf::common {

const char* process_env(const char* name) noexcept {
    return name == nullptr ? nullptr : std::getenv(name);
}

} // namespace irf::common
