// SPDX-License-Identifier: Apache-2.0
#include "common/whole_number.hpp"

namespace irf::common {

std::string whole_number_rule(std::int64_t min, std::optional<std::uint64_t> max) {
    return max ? "must be a whole number between " + std::to_string(min) + " and " +
                     std::to_string(*max)
               : "must be a whole number, " + std::to_string(min) + " or more";
}

} // namespace irf::common
