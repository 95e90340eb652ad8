// SPDX-License-Identifier: Apache-2.0
// Thread predication ratio (docs/model.md: IRM section 3.2).
#include "model/predication.hpp"

#include <algorithm>

#include "model/counters.hpp"

namespace irf::model {

std::optional<double> predication(const Counters& counters, std::vector<std::string>& missing) {
    const auto thread = counter(counters, "inst_thread");
    const auto warp = counter(counters, "inst_warp");
    if (!thread || !warp) {
        missing.push_back("predication: counters absent: " +
                          absent_counters(counters, {"inst_thread", "inst_warp"}));
        return std::nullopt;
    }
    const auto ratio = safe_ratio(*thread, 32.0 * *warp);
    if (!ratio || *ratio <= 0) {
        missing.push_back("predication: no warp or thread instructions executed");
        return std::nullopt;
    }
    if (*ratio > 1.0 + 1e-9) {
        missing.push_back(
            "predication: inst_thread exceeds 32 x inst_warp (inconsistent counters)");
        return std::nullopt;
    }
    return std::min(*ratio, 1.0);
}

} // namespace irf::model
