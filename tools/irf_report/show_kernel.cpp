// SPDX-License-Identifier: Apache-2.0
// `irf-report show`: what a kernel is, how it was launched and timed, its counters; rendering.
#include "tools/irf_report/show_kernel.hpp"

#include <algorithm>
#include <cstdio>

#include "common/text_safety.hpp"
#include "common/time_format.hpp"
#include "model/summary/summary_samples.hpp"
#include "tools/irf_report/summary_markdown.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

using common::format_significant;
using common::format_time;

std::string count(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
}

std::string dims(const std::array<std::uint32_t, 3>& d) {
    return "[" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) +
           "]";
}

ShowSection identity(const model::KernelRecord& k, const std::string& label) {
    ShowSection s{"Kernel " + label, {}, {}, {}};
    s.rows.push_back({"demangled", k.name});
    s.rows.push_back({"mangled", k.mangled.empty() ? "-" : k.mangled});
    s.rows.push_back({"call site", k.call_site.empty() ? "not captured (IRF_CALLSTACK=0 or no "
                                                         "symbols)"
                                                       : k.call_site});
    return s;
}

ShowSection launch_config(const model::LaunchConfig& l) {
    const double blocks = double(l.grid[0]) * l.grid[1] * l.grid[2];
    const double threads = double(l.block[0]) * l.block[1] * l.block[2];
    ShowSection s{"Launch configuration", {}, {}, {}};
    if (!model::launch_known(l)) {
        s.rows.push_back({"grid", "not in the files (an import without launch columns)"});
        return s;
    }
    s.rows.push_back({"grid", dims(l.grid) + " = " + count(blocks) + " blocks"});
    s.rows.push_back({"block", dims(l.block) + " = " + count(threads) + " threads"});
    // An import with grid and block but no register column leaves 0: unknown, not zero (a
    // kernel runs on registers).
    s.rows.push_back({"registers", l.regs > 0 ? std::to_string(l.regs) + " per thread"
                                              : std::string("not in the files")});
    s.rows.push_back({"shared memory", std::to_string(l.smem_bytes) + " B per block"});
    return s;
}

ShowSection launches_and_time(const model::KernelRecord& k) {
    ShowSection s{"Launches and time", {}, {}, k.notes};
    s.rows.push_back({"launches", std::to_string(k.launches) + " (" +
                                      std::to_string(k.profiled_launches) + " profiled)"});
    if (k.untimed) {
        s.rows.push_back({"time", "not in the files (no duration was exported)"});
    } else {
        s.rows.push_back({"total", format_time(k.time_ns.total)});
        s.rows.push_back({"mean", format_time(k.time_ns.mean) + " per launch"});
        s.rows.push_back({"min", format_time(k.time_ns.min)});
        s.rows.push_back({"max", format_time(k.time_ns.max)});
    }
    if (k.first_launch_ns) {
        s.rows.push_back({"first launch", format_time(*k.first_launch_ns) +
                                              " (left out of mean/min/max; in the total)"});
    }
    if (k.imputed_launches > 0) {
        s.rows.push_back({"imputed", std::to_string(k.imputed_launches) +
                                         " profiled launch(es) counted at the mean of the others "
                                         "(no gpu__time_duration in the sample)"});
    }
    if (const std::string estimate = model::estimate_text(k); !estimate.empty()) {
        s.rows.push_back({"estimated", estimate});
    }
    if (!k.no_counters.empty()) {
        s.rows.push_back({"counters", "none: " + k.no_counters});
    }
    if (k.collective) {
        s.rows.push_back({"collective", "yes: overlaps compute, listed apart from its total"});
    }
    const std::string spread = model::sample_spread(k);
    if (!spread.empty()) {
        s.rows.push_back({"samples", spread});
    }
    return s;
}

ShowSection counters(const model::KernelRecord& k) {
    ShowSection s{"Counters (summed over " + std::to_string(k.profiled_launches) +
                      " profiled launch" + (k.profiled_launches == 1 ? ")" : "es)"),
                  {"counter", "value", "unit"},
                  {},
                  {}};
    for (const auto& [name, value] : k.counters) {
        const std::string unit = counter_unit(name);
        if (unit == "ns") {
            s.rows.push_back({name, format_time(value), "(time)"});
        } else if (unit == "Hz") {
            s.rows.push_back({name, format_significant(value / 1e6), "MHz"});
        } else {
            s.rows.push_back({name, count(value), unit.empty() ? "-" : unit});
        }
    }
    if (k.counters.empty()) {
        s.lines.push_back("no counters: no launch of this kernel was profiled");
    }
    return s;
}

ShowSection regions(const model::KernelRecord& k) {
    ShowSection s{"NVTX regions", {"region", "launches", "time"}, {}, {}};
    for (const model::KernelRegion& r : k.regions) {
        s.rows.push_back({r.path, std::to_string(r.launches), format_time(r.time_ns)});
    }
    return s;
}

bool starts_with(const std::string& text, const char* prefix) {
    return text.rfind(prefix, 0) == 0;
}

/// Display width of each column over the header and rows.
std::vector<std::size_t> column_widths(const ShowSection& s) {
    std::vector<std::size_t> widths(s.header.size(), 0);
    for (std::size_t c = 0; c < s.header.size(); ++c) {
        widths[c] = common::utf8_length(s.header[c]);
    }
    for (const auto& row : s.rows) {
        widths.resize(std::max(widths.size(), row.size()), 0);
        for (std::size_t c = 0; c < row.size(); ++c) {
            widths[c] = std::max(widths[c], common::utf8_length(common::printable(row[c])));
        }
    }
    return widths;
}

std::string text_row(const std::vector<std::string>& cells,
                     const std::vector<std::size_t>& widths) {
    std::string line = "  ";
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const std::string text = common::printable(cells[c]);
        line += text;
        if (c + 1 < cells.size()) {
            line += std::string(widths[c] - common::utf8_length(text) + 2, ' ');
        }
    }
    return line + "\n";
}

} // namespace

std::string counter_unit(const std::string& name) {
    if (name == "time_ns") {
        return "ns";
    }
    if (name == "clock_hz") {
        return "Hz";
    }
    if (name == "inst_thread" || starts_with(name, "thread_")) {
        return "thread instructions";
    }
    if (starts_with(name, "inst_")) {
        return "warp instructions";
    }
    if (name.find("sectors") != std::string::npos) {
        return "sectors (32 B)";
    }
    if (name.find("wavefronts") != std::string::npos ||
        name.rfind("bank_conflicts_", 0) == 0) { // extra wavefronts the conflicts cost
        return "wavefronts";
    }
    if (starts_with(name, "bytes_")) {
        return "B";
    }
    if (starts_with(name, "tensor_ops")) {
        return "tensor ops";
    }
    return "";
}

std::vector<ShowSection> kernel_sections(const model::KernelRecord& kernel,
                                         const std::string& label) {
    std::vector<ShowSection> sections{identity(kernel, label), launch_config(kernel.launch),
                                      launches_and_time(kernel), counters(kernel)};
    if (!kernel.regions.empty()) {
        sections.push_back(regions(kernel));
    }
    return sections;
}

std::string render_text(const std::vector<ShowSection>& sections) {
    std::string out;
    for (const ShowSection& s : sections) {
        out += (out.empty() ? "" : "\n") + common::printable(s.title) + "\n";
        const std::vector<std::size_t> widths = column_widths(s);
        if (!s.header.empty()) {
            out += text_row(s.header, widths);
        }
        for (const auto& row : s.rows) {
            out += text_row(row, widths);
        }
        for (const std::string& line : s.lines) {
            out += "  " + common::printable(line) + "\n";
        }
    }
    return out;
}

std::string render_markdown(const std::vector<ShowSection>& sections) {
    std::string out;
    for (const ShowSection& s : sections) {
        out += (out.empty() ? "### " : "\n#### ") + markdown_cell(s.title) + "\n\n";
        const std::vector<std::string> header =
            s.header.empty() ? std::vector<std::string>{"", ""} : s.header;
        if (!s.rows.empty()) {
            for (const std::string& h : header) {
                out += "| " + markdown_cell(h) + " ";
            }
            out += "|\n";
            for (std::size_t c = 0; c < header.size(); ++c) {
                out += "|---";
            }
            out += "|\n";
            for (const auto& row : s.rows) {
                for (const std::string& c : row) {
                    out += "| " + markdown_cell(c) + " ";
                }
                out += "|\n";
            }
        }
        out += !s.rows.empty() && !s.lines.empty() ? "\n" : "";
        for (const std::string& line : s.lines) {
            out += "- " + markdown_cell(line) + "\n";
        }
    }
    return out;
}

} // namespace irf::report
