// SPDX-License-Identifier: Apache-2.0
// Evaluated CUPTI metric values -> canonical counters.
#include "intercept/cupti/counter_map.hpp"

#include <cmath>
#include <unordered_map>

namespace irf::intercept::cupti {

model::Counters to_counters(const std::vector<config::MetricBinding>& bindings,
                            const std::vector<std::string>& names,
                            const std::vector<double>& values) {
    std::unordered_map<std::string, double> by_name;
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) {
        by_name.emplace(names[i], values[i]);
    }
    model::Counters counters;
    for (const auto& binding : bindings) {
        double sum = 0;
        bool complete = !binding.metrics.empty();
        for (const auto& metric : binding.metrics) {
            const auto it = by_name.find(metric);
            if (it == by_name.end() || !std::isfinite(it->second)) {
                complete = false;
                break;
            }
            sum += it->second;
        }
        if (complete) {
            counters[binding.canonical] = sum;
        }
    }
    return counters;
}

} // namespace irf::intercept::cupti
