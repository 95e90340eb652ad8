// SPDX-License-Identifier: Apache-2.0
// irf-report compare: how each kernel moved between two profiles.
#include "tools/irf_report/compare_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "common/text_safety.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/same_gpu.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

using model::KernelRecord;

// A change smaller than this ratio (5%) reads as "unchanged".
constexpr double k_threshold = 1.05;

const model::IrmResult* irm_of(const KernelRecord& k) {
    return k.analysis && k.analysis->irm ? &*k.analysis->irm : nullptr;
}

std::optional<double> level(const model::PerLevel& p, const std::string& name) {
    return name == "l1" ? p.l1 : name == "l2" ? p.l2 : p.hbm;
}

const char* level_title(const std::string& name) {
    return name == "l1" ? "L1" : name == "l2" ? "L2" : "HBM";
}

const char* transactions(const std::string& name) {
    return name == "l1" ? "L1 (global/local/shared)" : name == "l2" ? "L2" : "DRAM";
}

// The level to read the movement at: the one whose intensity moved most, else the bound.
std::string reading_level(const model::IrmResult& b, const model::IrmResult& a) {
    std::string best;
    double best_change = std::log(k_threshold);
    for (const char* name : {"l1", "l2", "hbm"}) {
        const auto x = level(b.ii, name), y = level(a.ii, name);
        if (x && y && *x > 0 && *y > 0 && std::fabs(std::log(*y / *x)) > best_change) {
            best_change = std::fabs(std::log(*y / *x));
            best = name;
        }
    }
    if (!best.empty()) {
        return best;
    }
    return a.bound == "l1" || a.bound == "l2" ? a.bound : "hbm";
}

std::string movement(const model::IrmResult& b, const model::IrmResult& a) {
    const std::string lv = reading_level(b, a);
    const auto x = level(b.ii, lv), y = level(a.ii, lv);
    std::string out;
    if (x && y && *x > 0 && *y > 0) {
        const std::string ii = " (II " + format_number(*x) + " -> " + format_number(*y) + ")";
        if (*y / *x > k_threshold) {
            out = std::string("moved right along ") + level_title(lv) + ": fewer " +
                  transactions(lv) + " transactions per instruction" + ii;
        } else if (*x / *y > k_threshold) {
            out = std::string("moved left along ") + level_title(lv) + ": more " +
                  transactions(lv) + " transactions per instruction" + ii;
        } else {
            out = std::string("same ") + level_title(lv) + " intensity" + ii;
        }
    } else {
        out = std::string("no ") + level_title(lv) + " intensity to compare";
    }
    if (b.gips_warp > 0 && a.gips_warp / b.gips_warp > k_threshold) {
        out += ", up: more warp GIPS";
    } else if (a.gips_warp > 0 && b.gips_warp / a.gips_warp > k_threshold) {
        out += ", down: fewer warp GIPS";
    }
    if (a.bound != b.bound) {
        out += "; bound " + b.bound + " -> " + a.bound;
    }
    return out;
}

// Walls and predication changes worth naming in the reading.
std::string side_notes(const KernelRecord& before, const KernelRecord& after) {
    const auto& b = *before.analysis;
    const auto& a = *after.analysis;
    std::string out;
    if (b.walls.shared && a.walls.shared &&
        std::fabs(b.walls.shared->conflict_ways - a.walls.shared->conflict_ways) >= 0.5) {
        out += "; shared bank conflicts " + format_number(b.walls.shared->conflict_ways) +
               "-way -> " + format_number(a.walls.shared->conflict_ways) + "-way";
    }
    if (b.walls.global && a.walls.global && b.walls.global->pattern != a.walls.global->pattern) {
        out += "; global pattern " + b.walls.global->pattern + " -> " + a.walls.global->pattern;
    }
    if (b.predication && a.predication && std::fabs(*b.predication - *a.predication) >= 0.05) {
        out += "; predication " + format_number(*b.predication, 2) + " -> " +
               format_number(*a.predication, 2);
    }
    return out;
}

std::string time_change(double before_ns, double after_ns) {
    if (!(before_ns > 0) || !(after_ns > 0)) {
        return "time not comparable";
    }
    const double ratio = before_ns / after_ns;
    if (ratio > k_threshold) {
        return format_number(ratio) + "x faster";
    }
    if (1 / ratio > k_threshold) {
        return format_number(after_ns / before_ns) + "x slower";
    }
    return "time unchanged";
}

std::string percent_change(double before_ns, double after_ns) {
    if (!(before_ns > 0)) {
        return "";
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, " (%+.1f%%)", (after_ns / before_ns - 1) * 100);
    return buffer;
}

std::string pair(std::optional<double> b, std::optional<double> a, int digits = 3) {
    return format_number(b, digits) + " -> " + format_number(a, digits);
}

/// Predication as the share of a warp's threads active per instruction ("50%"), as the tables.
std::string active_threads(std::optional<double> predication) {
    return predication ? format_number(100.0 * *predication) + "%" : "-";
}

std::string global_wall(const model::Walls& w) {
    return w.global
               ? format_number(w.global->intensity) + " " + common::printable(w.global->pattern)
               : "-";
}

std::string shared_wall(const model::Walls& w) {
    return w.shared ? format_number(w.shared->intensity) + " (" +
                          format_number(w.shared->conflict_ways) + "-way)"
                    : "-";
}

// "12.5%", or "-" for a point without a bound (no time: no % of roofline).
std::string roofline_pct(const model::IrmResult& r) {
    return r.bound.empty() ? "-" : format_number(r.roofline_pct) + "%";
}

void kernel_block(std::ostringstream& out, const std::string& label, const KernelRecord& b,
                  const KernelRecord& a) {
    out << "\n" << label << "  [" << format_launch(a.launch) << "]\n";
    out << "  time         " << format_total_time(b) << " -> " << format_total_time(a)
        << (a.untimed || b.untimed ? std::string()
                                   : percent_change(b.time_ns.total, a.time_ns.total))
        << ", launches " << b.launches << " -> " << a.launches << "\n";
    const model::IrmResult* ib = irm_of(b);
    const model::IrmResult* ia = irm_of(a);
    if (ib && ia) {
        out << "  bound        " << common::printable(ib->bound) << " -> "
            << common::printable(ia->bound) << ", " << roofline_pct(*ib) << " -> "
            << roofline_pct(*ia) << " of roofline\n";
        out << "  warp GIPS    " << pair(ib->gips_warp, ia->gips_warp) << "   thread GIPS "
            << pair(ib->gips_thread, ia->gips_thread) << "\n";
        out << "  II L1        " << pair(ib->ii.l1, ia->ii.l1) << "   L2 "
            << pair(ib->ii.l2, ia->ii.l2) << "   HBM " << pair(ib->ii.hbm, ia->ii.hbm) << "\n";
    }
    if (b.analysis && a.analysis) {
        out << "  global wall  " << global_wall(b.analysis->walls) << " -> "
            << global_wall(a.analysis->walls) << "\n";
        out << "  shared wall  " << shared_wall(b.analysis->walls) << " -> "
            << shared_wall(a.analysis->walls) << "\n";
        out << "  predication  " << active_threads(b.analysis->predication) << " -> "
            << active_threads(a.analysis->predication) << " active threads\n";
    }
    out << "  reading      " << compare_reading(b, a) << "\n";
}

} // namespace

std::string compare_reading(const KernelRecord& before, const KernelRecord& after) {
    const std::string time = before.untimed || after.untimed
                                 ? std::string("time unknown (no duration in the files)")
                                 : time_change(before.time_ns.total, after.time_ns.total);
    const model::IrmResult* b = irm_of(before);
    const model::IrmResult* a = irm_of(after);
    if (!b || !a) {
        return std::string("no Instruction Roofline ") +
               (!b && !a ? "in either profile"
                : !b     ? "before"
                         : "after") +
               " (timing only); " + time;
    }
    return movement(*b, *a) + side_notes(before, after) + "; " + time;
}

namespace {

const model::RegionRecord* region_named(const model::Profile& p, const std::string& path) {
    for (const model::RegionRecord& r : p.regions) {
        if (r.path == path) {
            return &r;
        }
    }
    return nullptr;
}

std::string bound_of(const model::RegionRecord& r) {
    if (!r.analysis || r.analysis->bound_shares.empty()) {
        return "?";
    }
    const auto top =
        std::max_element(r.analysis->bound_shares.begin(), r.analysis->bound_shares.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    return top->first;
}

// NVTX regions matched by path: time (and its change), launches, the bound with most time.
void regions_section(std::ostringstream& out, const model::Profile& before,
                     const model::Profile& after) {
    if (before.regions.empty() && after.regions.empty()) {
        return;
    }
    out << "\nNVTX regions (before -> after):\n";
    for (const model::RegionRecord& b : before.regions) {
        const model::RegionRecord* a = region_named(after, b.path);
        out << "  " << common::printable(b.path) << ": ";
        if (a == nullptr) {
            out << "only before (" << format_time(b.time_ns) << ")\n";
            continue;
        }
        out << format_time(b.time_ns) << " -> " << format_time(a->time_ns)
            << percent_change(b.time_ns, a->time_ns) << ", " << time_change(b.time_ns, a->time_ns)
            << "; launches " << b.launches << " -> " << a->launches << "; bound " << bound_of(b)
            << " -> " << bound_of(*a) << "\n";
    }
    for (const model::RegionRecord& a : after.regions) {
        if (region_named(before, a.path) == nullptr) {
            out << "  " << common::printable(a.path) << ": only after (" << format_time(a.time_ns)
                << ")\n";
        }
    }
}

} // namespace

namespace {

double total_time(const model::Profile& p) {
    double total = 0;
    for (const KernelRecord& k : p.kernels) {
        total += std::max(0.0, k.time_ns.total);
    }
    return total;
}

// Matched pairs in the view's order; time order uses the larger of the two times, so a kernel
// that vanished or appeared ranks by the time it had.
std::vector<std::pair<std::size_t, std::size_t>>
ordered_pairs(const model::Profile& before, const model::Profile& after, const KernelMatch& match,
              const std::map<std::string, std::string>& labels, const CompareView& view) {
    std::vector<KernelRecord> keys;
    std::vector<std::string> names;
    for (const auto& [i, j] : match.pairs) {
        // What kernel_order reads, the time and the Instruction Roofline verdict, not the whole
        // kernel: a copy of each took a quarter of comparing raw profiles (docs/performance.md,
        // "Tools' memory").
        KernelRecord& key = keys.emplace_back();
        key.time_ns.total =
            std::max(before.kernels[i].time_ns.total, after.kernels[j].time_ns.total);
        if (const auto& a = after.kernels[j].analysis; a) {
            key.analysis.emplace().irm = a->irm;
        }
        names.push_back(labels.at(after.kernels[j].name));
    }
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t n : model::kernel_order(keys, names, view.order)) {
        out.push_back(match.pairs[n]);
    }
    return out;
}

std::string totals_line(const model::Profile& before, const model::Profile& after,
                        const KernelMatch& match) {
    const double b = total_time(before), a = total_time(after);
    return "total kernel time " + format_time(b) + " -> " + format_time(a) + percent_change(b, a) +
           "; " + std::to_string(match.pairs.size()) + " matched, " +
           std::to_string(match.only_before.size()) + " only before, " +
           std::to_string(match.only_after.size()) + " only after\n";
}

std::string markdown_table(const model::Profile& before, const model::Profile& after,
                           const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                           const std::map<std::string, std::string>& labels) {
    std::ostringstream out;
    out << "| kernel | time before | time after | change | bound before -> after | reading |\n"
        << "|---|---:|---:|---:|---|---|\n";
    for (const auto& [i, j] : pairs) {
        const KernelRecord& b = before.kernels[i];
        const KernelRecord& a = after.kernels[j];
        const model::IrmResult* ib = irm_of(b);
        const model::IrmResult* ia = irm_of(a);
        out << "| " << common::markdown_code(labels.at(a.name)) << " | " << format_total_time(b)
            << " | " << format_total_time(a) << " | "
            << (b.untimed || a.untimed ? "-" : time_change(b.time_ns.total, a.time_ns.total))
            << " | " << (ib && !ib->bound.empty() ? common::markdown_text(ib->bound) : "-")
            << " -> " << (ia && !ia->bound.empty() ? common::markdown_text(ia->bound) : "-")
            << " | " << common::markdown_text(compare_reading(b, a)) << " |\n";
    }
    return out.str();
}

// One line when the GPUs are not known to be one model (same_gpu.hpp), else nothing.
std::string gpu_note(const model::GpuInfo& before, const model::GpuInfo& after) {
    switch (gpu_relation(before, after, shipped_dirs())) {
    case GpuRelation::different:
        return "note: the profiles come from different GPUs; movements mix code and machine\n";
    case GpuRelation::same_chip: {
        const model::GpuInfo& known = before.chip.empty() ? after : before;
        return "note: one profile does not name its GPU model; both are " +
               (known.chip.empty() ? std::string("of an unknown chip") : known.chip) +
               (known.cc.empty() ? "" : ", cc " + known.cc) +
               " (nothing in the files tells the two apart)\n";
    }
    case GpuRelation::same:
        break;
    }
    return {};
}

} // namespace

std::string compare_text(const model::Profile& before, const std::string& before_name,
                         const model::Profile& after, const std::string& after_name,
                         const CompareView& view) {
    std::ostringstream out;
    out << "before: " << common::printable(before_name) << " (" << describe_gpu(before.gpu) << ", "
        << before.kernels.size() << " kernels)\n";
    out << "after:  " << common::printable(after_name) << " (" << describe_gpu(after.gpu) << ", "
        << after.kernels.size() << " kernels)\n";
    out << gpu_note(before.gpu, after.gpu);
    const KernelMatch match = match_kernels(before.kernels, after.kernels);
    const auto labels = name_labels(before.kernels, after.kernels, view.names, view.name_width);
    auto pairs = ordered_pairs(before, after, match, labels, view);
    const std::size_t hidden = pairs.size() > view.top ? pairs.size() - view.top : 0;
    pairs.resize(pairs.size() - hidden);
    if (view.markdown) {
        out << "\n" << markdown_table(before, after, pairs, labels);
    } else {
        for (const auto& [i, j] : pairs) {
            kernel_block(out, labels.at(after.kernels[j].name), before.kernels[i],
                         after.kernels[j]);
        }
    }
    if (hidden > 0) {
        out << "\n(" << hidden << " more matched kernels; --top to show them)\n";
    }
    if (!match.only_before.empty() || !match.only_after.empty()) {
        out << "\n";
    }
    for (const std::size_t i : match.only_before) {
        out << "only before: " << labels.at(before.kernels[i].name) << "  ("
            << format_total_time(before.kernels[i]) << ")\n";
    }
    for (const std::size_t j : match.only_after) {
        out << "only after:  " << labels.at(after.kernels[j].name) << "  ("
            << format_total_time(after.kernels[j]) << ")\n";
    }
    regions_section(out, before, after);
    out << "\n" << totals_line(before, after, match);
    return out.str();
}

} // namespace irf::report
