// SPDX-License-Identifier: Apache-2.0
// Notes for runs that profiled nothing (issue 21: an empty table left users guessing).
#include "inject/run_notes.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "config/kernel_regex.hpp"
#include "config/nvtx_expr.hpp"

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

/// The range stack a region path stands for: "train_step/forward" -> two default-domain ranges.
std::vector<config::NvtxRange> path_stack(const std::string& path) {
    std::vector<config::NvtxRange> stack;
    std::size_t start = 0;
    while (!path.empty() && start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        stack.push_back({"", path.substr(start, end - start)});
        start = end + 1;
    }
    return stack;
}

/// True when one of `exprs` matches one of the profile's region paths.
bool any_region_matches(const model::Profile& profile, const std::vector<config::NvtxExpr>& exprs) {
    for (const model::RegionRecord& r : profile.regions) {
        const std::vector<config::NvtxRange> stack = path_stack(r.path);
        for (const config::NvtxExpr& e : exprs) {
            if (config::nvtx_matches(e, stack, {})) {
                return true;
            }
        }
    }
    return false;
}

/// "a/b, c" for the region paths with the most launches.
std::string busiest_regions(const model::Profile& profile) {
    std::vector<const model::RegionRecord*> ranked;
    for (const model::RegionRecord& r : profile.regions) {
        if (!r.path.empty()) { // "" holds the launches outside every range
            ranked.push_back(&r);
        }
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto* a, const auto* b) { return a->launches > b->launches; });
    std::string out;
    for (std::size_t i = 0; i < ranked.size() && i < k_listed_names; ++i) {
        out += (out.empty() ? "" : ", ") + ranked[i]->path;
    }
    return out.empty() ? "none" : out;
}

} // namespace

std::vector<std::string> nvtx_filter_notes(const model::Profile& profile,
                                           const std::string& nvtx_include) {
    std::vector<config::NvtxExpr> exprs;
    std::string problem;
    if (nvtx_include.empty() || profile.coverage.launches == 0 ||
        profile.coverage.profiled_launches > 0 ||
        !config::parse_nvtx_list(nvtx_include, exprs, problem) ||
        any_region_matches(profile, exprs)) {
        return {};
    }
    const bool names_a_start_end_range =
        std::any_of(exprs.begin(), exprs.end(), [](const auto& e) { return !e.push_pop; });
    return {"no launch ran inside a range matching --nvtx-include '" + nvtx_include +
            "' (IRF_NVTX_INCLUDE), so no kernel was profiled" +
            (names_a_start_end_range
                 ? "; an expression without a trailing '/' names a start/end range "
                   "(nvtxRangeStart): for push/pop ranges end it with '/'"
                 : "") +
            "; ranges seen: " + busiest_regions(profile)};
}

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

std::string nvtx_injection_note(const char* nvtx_injection, bool nvtx_filters,
                                bool ranges_from_nvtx) {
    if (nvtx_injection == nullptr || nvtx_injection[0] == '\0') {
        return nvtx_filters && ranges_from_nvtx
                   ? "NVTX_INJECTION64_PATH is unset: irf sees no NVTX range, so "
                     "IRF_NVTX_INCLUDE/IRF_NVTX_EXCLUDE match nothing and regions are empty (set "
                     "it to libirf.so, as `irf run` does)"
                   : "";
    }
    const std::string path = nvtx_injection;
    const std::string file = path.substr(path.find_last_of('/') + 1);
    if (file.rfind("libirf", 0) == 0) {
        return "";
    }
    // NVTX loads one injection library: with another tool's, that tool gets every range.
    return "NVTX_INJECTION64_PATH=" + path +
           " is another tool's library: NVTX ranges go to it, not to irf, so regions are empty";
}

} // namespace irf::inject
