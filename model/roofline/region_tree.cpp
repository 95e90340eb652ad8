// SPDX-License-Identifier: Apache-2.0
#include "model/roofline/region_tree.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include "model/roofline/regions.hpp"

namespace irf::model {
namespace {

using Components = std::vector<std::string>;

Components split_path(const std::string& path) {
    Components out;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        out.push_back(path.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

std::string joined(const Components& c, std::size_t count) {
    std::string out;
    for (std::size_t i = 0; i < count && i < c.size(); ++i) {
        out += (i == 0 ? "" : "/") + c[i];
    }
    return out;
}

/// "layer12" -> {"layer", "12"}; a name without trailing digits, or only digits -> {name, ""}.
std::pair<std::string, std::string> numbered(const std::string& name) {
    std::size_t cut = name.size();
    while (cut > 0 && std::isdigit(static_cast<unsigned char>(name[cut - 1])) != 0) {
        --cut;
    }
    if (cut == 0 || cut == name.size()) {
        return {name, ""};
    }
    return {name.substr(0, cut), name.substr(cut)};
}

/// Folds, level by level, names that have numbered siblings (two or more numbers after one
/// prefix under one parent) into "prefix*".
std::vector<Components> folded_paths(const std::vector<Components>& paths) {
    std::vector<Components> out = paths;
    std::size_t deepest = 0;
    for (const Components& p : paths) {
        deepest = std::max(deepest, p.size());
    }
    for (std::size_t level = 0; level < deepest; ++level) {
        std::map<std::pair<std::string, std::string>, std::set<std::string>> numbers;
        for (const Components& p : out) {
            if (level < p.size()) {
                const auto [prefix, digits] = numbered(p[level]);
                if (!digits.empty()) {
                    numbers[{joined(p, level), prefix}].insert(digits);
                }
            }
        }
        for (Components& p : out) {
            if (level < p.size()) {
                const auto [prefix, digits] = numbered(p[level]);
                if (!digits.empty() && numbers[{joined(p, level), prefix}].size() >= 2) {
                    p[level] = prefix + "*";
                }
            }
        }
    }
    return out;
}

struct NodeParts {
    std::vector<RegionPart> parts;
    std::map<std::string, double> member_ns; ///< unfolded name at the node's level -> time
    double counted_ns = 0;
};

void sort_children(std::vector<RegionNode>& nodes) {
    // Depth-first, children by inclusive time: each node sorts by its path's (time, name) keys,
    // computed once per node rather than in every comparison.
    std::map<std::string, double> time_of;
    for (const RegionNode& n : nodes) {
        time_of[n.path] = n.inclusive.time_ns;
    }
    using Key = std::vector<std::pair<double, std::string>>;
    std::vector<std::pair<Key, RegionNode>> keyed;
    keyed.reserve(nodes.size());
    for (RegionNode& n : nodes) {
        Key k;
        const Components c = split_path(n.path);
        for (std::size_t i = 1; i <= c.size(); ++i) {
            std::string prefix = joined(c, i);
            k.emplace_back(-time_of[prefix], std::move(prefix));
        }
        keyed.emplace_back(std::move(k), std::move(n));
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        nodes[i] = std::move(keyed[i].second);
    }
}

} // namespace

std::string_view plain_range_view(std::string_view name) noexcept {
    for (std::string_view decoration : {", seq = ", ", op_id = ", ", sizes = ", ", input_op_ids"}) {
        const std::size_t at = name.find(decoration);
        if (at != std::string_view::npos) {
            name = name.substr(0, at);
        }
    }
    return name;
}

std::string plain_range_name(std::string_view name) {
    return std::string(plain_range_view(name));
}

std::string grouped_path(const std::string& path, std::size_t depth) {
    Components c = split_path(path);
    if (depth > 0 && c.size() > depth) {
        c.resize(depth);
    }
    for (std::string& name : c) {
        name = plain_range_name(name);
    }
    return joined(c, c.size());
}

std::vector<RegionNode> region_tree(const Profile& profile, const RegionGrouping& grouping) {
    std::vector<RegionPart> parts;
    std::vector<Components> raw;
    for (const KernelRecord& k : profile.kernels) {
        for (const KernelRegion& part : k.regions) {
            if (!part.path.empty()) {
                parts.emplace_back(&k, part);
                raw.push_back(split_path(grouped_path(part.path, grouping.depth)));
            }
        }
    }
    const std::vector<Components> shown = grouping.fold_numbers ? folded_paths(raw) : raw;
    std::map<std::string, NodeParts> by_node;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto& [kernel, part] = parts[i];
        const bool counted = part.profiled_launches > 0 && kernel->profiled_launches > 0;
        for (std::size_t level = 1; level <= shown[i].size(); ++level) {
            NodeParts& node = by_node[joined(shown[i], level)];
            node.parts.push_back(parts[i]);
            node.member_ns[raw[i][level - 1]] += part.time_ns;
            node.counted_ns += counted ? part.time_ns : 0.0;
        }
    }
    std::vector<RegionNode> nodes;
    for (const auto& [path, node] : by_node) {
        RegionNode n;
        n.path = path;
        n.level = split_path(path).size() - 1;
        n.inclusive = roll_up_region(path, node.parts);
        std::set<const KernelRecord*> kernels;
        for (const RegionPart& p : node.parts) {
            kernels.insert(p.first);
        }
        n.inclusive.kernels = kernels.size();
        n.members = node.member_ns.size();
        const auto [shortest, longest] =
            std::minmax_element(node.member_ns.begin(), node.member_ns.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
        n.member_min_ns = shortest->second;
        n.member_max_ns = longest->second;
        n.counted_share = n.inclusive.time_ns > 0 ? node.counted_ns / n.inclusive.time_ns : 0.0;
        nodes.push_back(std::move(n));
    }
    sort_children(nodes);
    return nodes;
}

} // namespace irf::model
