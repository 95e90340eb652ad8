// SPDX-License-Identifier: Apache-2.0
// Notes for runs that profiled nothing (issue 21: an empty table left users guessing).
#include "inject/run_notes.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "config/kernel_regex.hpp"

namespace irf::inject {
namespace {

/// "name (N launches), ..." for the most-launched names, launch configurations added up.
std::string most_launched(const std::vector<model::KernelRecord>& kernels) {
    std::map<std::string, std::uint64_t> by_name;
    for (const model::KernelRecord& k : kernels) {
        by_name[k.name] += k.launches;
    }
    std::vector<std::pair<std::string, std::uint64_t>> ranked(by_name.begin(), by_name.end());
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (std::size_t i = 0; i < ranked.size() && i < k_listed_names; ++i) {
        out += (out.empty() ? "" : ", ") + ranked[i].first + " (" +
               std::to_string(ranked[i].second) + " launches)";
    }
    return out;
}

} // namespace

std::vector<std::string> empty_run_notes(const model::Profile& profile,
                                         const std::string& kernels) {
    if (profile.coverage.launches == 0) {
        return {"no kernels were launched (the application made no CUDA kernel launch that irf "
                "could see)"};
    }
    if (kernels.empty()) {
        return {};
    }
    const config::KernelRegex filter(kernels);
    for (const model::KernelRecord& k : profile.kernels) {
        if (filter.search(k.name)) {
            return {};
        }
    }
    return {"no kernel matched --kernels '" + kernels +
            "' (IRF_KERNELS); most launched: " + most_launched(profile.kernels)};
}

} // namespace irf::inject
