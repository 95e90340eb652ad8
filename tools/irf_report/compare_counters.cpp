// SPDX-License-Identifier: Apache-2.0
// Counter-by-counter comparison of two profiles (docs/tools.md, "irf-report compare").
#include "tools/irf_report/compare_counters.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "common/text_safety.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

// A counter per profiled launch: runs that profiled different numbers of launches compare.
std::optional<double> per_launch(const model::KernelRecord& k, const std::string& name) {
    const auto it = k.counters.find(name);
    if (it == k.counters.end() || k.profiled_launches == 0) {
        return std::nullopt;
    }
    return name == "clock_hz" ? it->second : it->second / static_cast<double>(k.profiled_launches);
}

std::string difference_text(std::optional<double> a, std::optional<double> b) {
    if (!a || !b) {
        return a ? "only in A" : "only in B";
    }
    const auto d = relative_difference(*a, *b);
    if (!d) {
        return "new (0 before)";
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%+.2f%%", 100 * *d);
    return buffer;
}

void kernel_table(std::string& out, const model::KernelRecord& a, const model::KernelRecord& b) {
    out += "\n" + common::printable(a.name) + "  " + format_launch(a.launch) + "\n";
    char line[160];
    std::snprintf(line, sizeof line, "  %-26s %14s %14s  %s\n", "counter", "A", "B", "(B - A) / A");
    out += line;
    std::set<std::string> names;
    for (const auto& c : a.counters) {
        names.insert(c.first);
    }
    for (const auto& c : b.counters) {
        names.insert(c.first);
    }
    for (const std::string& name : names) {
        const auto va = per_launch(a, name);
        const auto vb = per_launch(b, name);
        // A counter name is the file's: escaped, and never cut into a fixed buffer (a name over
        // 160 bytes lost the rest of its row, line end included; issue 52 item 10).
        std::string shown = common::printable(name);
        shown.resize(std::max<std::size_t>(shown.size(), 26), ' ');
        std::snprintf(line, sizeof line, " %14s %14s  %s\n", format_number(va, 6).c_str(),
                      format_number(vb, 6).c_str(), difference_text(va, vb).c_str());
        out += "  " + shown + line;
    }
}

} // namespace

std::optional<double> relative_difference(double a, double b) {
    if (a == 0) {
        return b == 0 ? std::optional<double>(0) : std::nullopt;
    }
    return (b - a) / a;
}

std::string compare_counters_text(const model::Profile& a, const std::string& a_name,
                                  const model::Profile& b, const std::string& b_name) {
    std::string out =
        "counters per profiled launch (clock_hz as recorded)\n  A: " + common::printable(a_name) +
        "\n  B: " + common::printable(b_name) + "\n";
    const KernelMatch match = match_kernels(a.kernels, b.kernels);
    for (const auto& [ia, ib] : match.pairs) {
        kernel_table(out, a.kernels[ia], b.kernels[ib]);
    }
    for (const std::size_t i : match.only_before) {
        out += "\nonly in A: " + common::printable(a.kernels[i].name) + "\n";
    }
    for (const std::size_t i : match.only_after) {
        out += "\nonly in B: " + common::printable(b.kernels[i].name) + "\n";
    }
    return out;
}

} // namespace irf::report
