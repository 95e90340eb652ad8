// SPDX-License-Identifier: Apache-2.0
#include "model/summary/summary_regions.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "common/time_format.hpp"
#include "model/roofline/region_tree.hpp"

namespace irf::model {
namespace {

using common::format_time;
using common::printable;
using common::string_printf;

// The node's label: indented two spaces per level, its own range name, "[xN]" for N folded
// numbered siblings; cut from the front to `width` (the innermost name says most).
std::string node_label(const RegionNode& n, std::size_t width) {
    const std::size_t slash = n.path.rfind('/');
    std::string name = printable(slash == std::string::npos ? n.path : n.path.substr(slash + 1));
    if (n.members > 1) {
        name += " [x" + std::to_string(n.members) + "]";
    }
    std::string label = std::string(2 * std::min<std::size_t>(n.level, 8), ' ') + name;
    if (const std::size_t chars = common::utf8_length(label); chars > width && width > 3) {
        // Cut between whole characters (issue #39 item 5), keeping the end.
        label = "..." + label.substr(common::utf8_prefix(label, chars - (width - 3)).size());
    }
    return label;
}

// "1.20-1.31 ms" for a folded node: its members' shortest and longest inclusive time.
std::string spread_cell(const RegionNode& n) {
    if (n.members < 2) {
        return "-";
    }
    return format_time(n.member_min_ns) + "-" + format_time(n.member_max_ns);
}

// The exact region of a node that has no children and no folded siblings: its per-rank
// statistics (merged jobs) apply to the node as they are.
const RegionRecord* exact_region(const Profile& p, const RegionNode& n) {
    for (const RegionRecord& r : p.regions) {
        if (r.path == n.path && r.time_ns == n.inclusive.time_ns) {
            return &r;
        }
    }
    return nullptr;
}

// Indices of the `top` longest nodes, in tree order.
std::vector<std::size_t> shown_nodes(const std::vector<RegionNode>& nodes, std::size_t top) {
    std::vector<std::size_t> by_time(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        by_time[i] = i;
    }
    std::stable_sort(by_time.begin(), by_time.end(), [&](std::size_t a, std::size_t b) {
        return nodes[a].inclusive.time_ns > nodes[b].inclusive.time_ns;
    });
    by_time.resize(std::min(top, by_time.size()));
    std::sort(by_time.begin(), by_time.end());
    return by_time;
}

} // namespace

std::string imbalance_cell(const std::optional<RankStats>& ranks, int width) {
    return ranks && ranks->imbalance ? string_printf(" %*.2f", width, *ranks->imbalance)
                                     : string_printf(" %*s", width, "-");
}

std::string bound_shares(const RegionRecord& r) {
    if (!r.analysis) {
        return "-";
    }
    std::vector<std::pair<std::string, double>> shares(r.analysis->bound_shares.begin(),
                                                       r.analysis->bound_shares.end());
    std::stable_sort(shares.begin(), shares.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [bound, share] : shares) {
        out +=
            (out.empty() ? "" : " ") + printable(bound) + string_printf(" %.0f%%", 100.0 * share);
    }
    return out.empty() ? "-" : out;
}

std::string regions_section(const Profile& p, std::size_t top, double total, int name_width,
                            std::size_t depth) {
    const std::vector<RegionNode> nodes = region_tree(p, {depth, true});
    if (nodes.empty()) {
        return "";
    }
    const std::vector<std::size_t> shown = shown_nodes(nodes, top);
    const bool job = std::any_of(p.regions.begin(), p.regions.end(),
                                 [](const RegionRecord& r) { return r.ranks.has_value(); });
    std::string out =
        string_printf("\nTop %zu of %zu NVTX regions by inclusive time (a tree; numbered ranges "
                      "folded, PyTorch's seq/op_id left out%s)\n",
                      shown.size(), nodes.size(), depth > 0 ? "" : "; --depth N for fewer levels") +
        string_printf("%3s  %-*s %10s %6s %9s %7s %9s %12s %-19s%s  %s\n", "#", name_width,
                      "region", "time", "time%", "launches", "kernels", "GIPS", "counters",
                      "each (folded)", job ? "  imbal" : "", "bound (share of time)");
    std::size_t rank = 0;
    bool partial = false;
    for (std::size_t i : shown) {
        const RegionNode& n = nodes[i];
        const RegionRecord& r = n.inclusive;
        const bool gips = r.analysis && r.analysis->gips_warp;
        const bool part = n.counted_share < k_counted_enough;
        partial = partial || part;
        const RegionRecord* exact = job ? exact_region(p, n) : nullptr;
        const std::string imbalance =
            job ? imbalance_cell(exact ? exact->ranks : std::nullopt, 6) : "";
        out += string_printf(
            "%3zu  %-*s %10s %6.1f %9llu %7llu %9s %12s %-19s%s  %s\n", ++rank, name_width,
            node_label(n, static_cast<std::size_t>(name_width)).c_str(),
            format_time(r.time_ns).c_str(), total > 0 ? 100.0 * r.time_ns / total : 0.0,
            static_cast<unsigned long long>(r.launches), static_cast<unsigned long long>(r.kernels),
            gips ? string_printf("%.1f", *r.analysis->gips_warp).c_str() : "-",
            string_printf("%.0f%%%s", 100.0 * n.counted_share, part ? " partial" : "").c_str(),
            spread_cell(n).c_str(), imbalance.c_str(), bound_shares(r).c_str());
    }
    if (partial) {
        out += string_printf("(counters: share of the region's time in launches profiled there; "
                             "below %.0f%% its GIPS and bounds stand for part of it only)\n",
                             100.0 * k_counted_enough);
    }
    return out;
}

} // namespace irf::model
