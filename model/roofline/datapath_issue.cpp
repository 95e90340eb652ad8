// SPDX-License-Identifier: Apache-2.0
// Issue time on an SM's datapaths (model/roofline/datapath_issue.hpp).
#include "model/roofline/datapath_issue.hpp"

#include <algorithm>
#include <vector>

#include "model/roofline/counters.hpp"

namespace irf::model {

namespace {

struct Path {
    double gips = 0;
    unsigned runs = 0; ///< bit i set: runs class i of k_datapath_mix
};

std::vector<Path> paths_of(const std::map<std::string, config::Quantity>& datapaths) {
    std::vector<Path> out;
    for (const auto& [key, q] : datapaths) {
        Path p{q.value, 0};
        for (const std::string& cls : config::datapath_runs(key)) {
            const auto* it = std::find(k_datapath_mix.begin(), k_datapath_mix.end(), cls);
            if (it != k_datapath_mix.end()) {
                p.runs |= 1u << static_cast<unsigned>(it - k_datapath_mix.begin());
            }
        }
        if (p.runs != 0 && p.gips > 0) {
            out.push_back(p);
        }
    }
    return out;
}

} // namespace

std::optional<DatapathShares> datapath_shares(const Counters& counters) {
    static const std::array<std::pair<const char*, int>, 12> s_classes{{
        {"thread_class_integer", 0},
        {"thread_class_bit", 0},
        {"thread_class_fp32", 1},
        {"thread_class_fp64", 2},
        {"thread_class_fp16", 3},
        {"thread_class_fp8", 3},
        {"thread_class_memory", 4},
        {"thread_class_uniform", -1},
        {"thread_class_control", -1},
        {"thread_class_conversion", -1},
        {"thread_class_misc", -1},
        {"thread_class_comm", -1},
    }};
    DatapathShares shares{};
    double total = 0;
    bool any = false;
    for (const auto& [name, index] : s_classes) {
        const auto v = counter(counters, name);
        any = any || v.has_value();
        total += v.value_or(0.0);
        if (v && index >= 0) {
            shares[static_cast<std::size_t>(index)] += *v;
        }
    }
    if (!any || !(total > 0)) {
        return std::nullopt;
    }
    for (double& s : shares) {
        s /= total;
    }
    return shares;
}

double datapath_issue_ceiling(const DatapathShares& shares, double peak_warp_gips,
                              const std::map<std::string, config::Quantity>& datapaths) {
    const std::vector<Path> paths = paths_of(datapaths);
    double slowest = peak_warp_gips > 0 ? 1.0 / peak_warp_gips : 0.0; // ns per warp instruction
    const unsigned sets = 1u << shares.size();
    for (unsigned set = 1; set < sets; ++set) {
        double share = 0;
        double gips = 0;
        bool runnable = true;
        for (std::size_t i = 0; i < shares.size(); ++i) {
            if ((set & (1u << i)) == 0) {
                continue;
            }
            share += shares[i];
            const bool any_path = std::any_of(paths.begin(), paths.end(),
                                              [i](const Path& p) { return p.runs & (1u << i); });
            runnable = runnable && any_path;
        }
        for (const Path& p : paths) {
            gips += (p.runs & set) != 0 ? p.gips : 0.0;
        }
        if (runnable && share > 0 && gips > 0) {
            slowest = std::max(slowest, share / gips);
        }
    }
    return slowest > 0 ? 1.0 / slowest : peak_warp_gips;
}

} // namespace irf::model
