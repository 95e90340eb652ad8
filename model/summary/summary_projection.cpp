// SPDX-License-Identifier: Apache-2.0
// The projected-time section of the text summary (model/summary/text_summary.cpp, docs/model.md).
#include "model/summary/summary_projection.hpp"

#include <algorithm>
#include <iterator>
#include <map>

#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "common/time_format.hpp"

namespace irf::model {

using common::format_time;
using common::printable;
using common::string_printf;
using common::utf8_prefix;

namespace {

// Projected time of all analysed kernels on one target: sums of the per-kernel estimates.
struct TargetTotal {
    std::string target;
    double source_ns = 0, low_ns = 0, point_ns = 0, high_ns = 0;
    std::size_t kernels = 0, low_confidence = 0;
};

std::vector<TargetTotal> target_totals(const Profile& p, const std::vector<std::string>& targets) {
    // One pass over the kernels, each projection added to its target's total (in kernel order,
    // as a pass per target would add them).
    std::vector<TargetTotal> all;
    std::map<std::string, std::vector<std::size_t>, std::less<>> columns;
    for (const std::string& t : targets) {
        columns[t].push_back(all.size());
        all.push_back(TargetTotal{t});
    }
    for (const KernelRecord& k : p.kernels) {
        for_each_brief(p, k, [&](const std::string& target, const ProjectionBrief& b) {
            const auto it = columns.find(target);
            if (it == columns.end() || !(b.point_ns > 0)) {
                return;
            }
            for (const std::size_t column : it->second) {
                TargetTotal& total = all[column];
                total.source_ns += k.time_ns.total;
                total.low_ns += b.low_ns;
                total.point_ns += b.point_ns;
                total.high_ns += b.high_ns;
                ++total.kernels;
                total.low_confidence += b.low_confidence ? 1 : 0;
            }
        });
    }
    std::vector<TargetTotal> totals;
    std::copy_if(all.begin(), all.end(), std::back_inserter(totals),
                 [](const TargetTotal& t) { return t.kernels > 0; });
    std::stable_sort(totals.begin(), totals.end(), [](const TargetTotal& a, const TargetTotal& b) {
        return a.source_ns / a.point_ns > b.source_ns / b.point_ns;
    });
    return totals;
}

} // namespace

// One line per target: the profiled kernels' total time projected there (Eq. 9 summed).
std::string projection_section(const Profile& p, const std::vector<std::string>& targets) {
    const std::vector<TargetTotal> totals = target_totals(p, targets);
    if (totals.empty()) {
        return "";
    }
    std::string out = "\nProjected kernel time on other GPUs (sum over projected kernels)\n";
    out += string_printf("  %-20s %10s %10s %21s %8s %s\n", "target", "here", "projected",
                         "interval", "speedup", "low-confidence");
    for (const TargetTotal& t : totals) {
        out += string_printf("  %-20s %10s %10s %10s - %-8s %7.2fx %zu of %zu\n",
                             utf8_prefix(printable(t.target), 20).c_str(),
                             format_time(t.source_ns).c_str(), format_time(t.point_ns).c_str(),
                             format_time(t.low_ns).c_str(), format_time(t.high_ns).c_str(),
                             t.source_ns / t.point_ns, t.low_confidence, t.kernels);
    }
    return out;
}

} // namespace irf::model
