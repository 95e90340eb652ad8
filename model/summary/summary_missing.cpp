// SPDX-License-Identifier: Apache-2.0
// "Verdicts left out" of the text summary (model/summary/text_summary.cpp, docs/model.md).
#include "model/summary/summary_missing.hpp"

#include "common/string_printf.hpp"
#include "common/text_safety.hpp"

namespace irf::model {

using common::printable;
using common::string_printf;

namespace {

// Adds `line` for kernel `rank` to the folded list (one entry per distinct line, in first order).
void fold(std::vector<std::pair<std::string, std::vector<std::size_t>>>& folded,
          const std::string& line, std::size_t rank) {
    for (auto& [text, ranks] : folded) {
        if (text == line) {
            ranks.push_back(rank);
            return;
        }
    }
    folded.push_back({line, {rank}});
}

} // namespace

// Why verdicts of the shown kernels are absent: reasons that name absent counters are folded
// into one line per kernel; "no such instruction" reasons (nothing to judge) are left to the JSON.
// Identical lines of several kernels are printed once with the kernels' ranks, so a counter group
// that was not collected at all reads as one line, not one per kernel.
std::string missing_section(const std::vector<const KernelRecord*>& order, std::size_t shown) {
    std::vector<std::pair<std::string, std::vector<std::size_t>>> folded;
    for (std::size_t i = 0; i < shown; ++i) {
        if (!order[i]->no_counters.empty()) {
            fold(folded, "no counters: " + order[i]->no_counters, i + 1);
        }
        if (!order[i]->analysis) {
            continue;
        }
        std::string absent;
        for (const std::string& m : order[i]->analysis->missing) {
            const std::size_t colon = m.find(':');
            if (m.find("counters absent") != std::string::npos) {
                absent += (absent.empty() ? "" : ", ") + m.substr(0, colon);
            } else if (m.find(": no ") == std::string::npos) {
                fold(folded, m, i + 1);
            }
        }
        if (!absent.empty()) {
            fold(folded, "counters absent for " + absent, i + 1);
        }
        for (const std::string& note : order[i]->analysis->notes) {
            fold(folded, "note: " + note, i + 1);
        }
    }
    std::string out;
    for (const auto& [text, ranks] : folded) {
        const bool all = ranks.size() == shown && shown > 1;
        std::string who = all ? "all" : "";
        for (std::size_t j = 0; !all && j < ranks.size(); ++j) { // every rank, not the first only
            who += (j ? "," : "") + std::to_string(ranks[j]);
        }
        out += string_printf("  %-10s ", who.c_str()) + printable(text) + "\n";
    }
    return out.empty() ? out : "\nVerdicts left out (by kernel #):\n" + out;
}

} // namespace irf::model
