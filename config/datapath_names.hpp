// SPDX-License-Identifier: Apache-2.0
// Names in the ceilings file's datapaths and clocks blocks (issue 54; docs/ceilings.md,
// "Datapaths", "Sustained clocks"), header-only: the model reads them without the config library.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "config/ceilings.hpp"

namespace irf::config {

/// The instruction classes a datapath may run.
inline constexpr std::array<const char*, 7> k_datapath_classes{
    {"fp32", "int32", "fp64", "fp16", "lsu", "mufu", "tensor"}};

/// The classes a datapath key names ("fp32_or_int32" -> fp32, int32); empty when a part is not
/// one of k_datapath_classes or is named twice.
[[nodiscard]] inline std::vector<std::string> datapath_runs(const std::string& key) {
    std::vector<std::string> runs;
    const std::string separator = "_or_";
    std::size_t begin = 0;
    while (true) {
        const std::size_t end = key.find(separator, begin);
        const std::string part = key.substr(begin, end - begin);
        const bool known = std::find(k_datapath_classes.begin(), k_datapath_classes.end(), part) !=
                           k_datapath_classes.end();
        if (!known || std::find(runs.begin(), runs.end(), part) != runs.end()) {
            return {};
        }
        runs.push_back(part);
        if (end == std::string::npos) {
            return runs;
        }
        begin = end + separator.size();
    }
}

/// One clocks entry in MHz, 0 when absent.
[[nodiscard]] inline double clock_entry_mhz(const Ceilings& ceilings, const char* key) {
    const auto it = ceilings.clocks.find(key);
    return it != ceilings.clocks.end() ? it->second.value : 0.0;
}

/// The typical SM clock under load: clocks.sustained, else the boost clock.
[[nodiscard]] inline double sustained_clock_mhz(const Ceilings& ceilings) {
    const double sustained = clock_entry_mhz(ceilings, "sustained");
    return sustained > 0 ? sustained : ceilings.gpu.boost_clock_mhz;
}

} // namespace irf::config
