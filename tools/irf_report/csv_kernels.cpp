// SPDX-License-Identifier: Apache-2.0
// irf-report csv: one row per kernel with the analysed values (RFC 4180).
#include "tools/irf_report/csv_kernels.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "common/parallel.hpp"
#include "common/text_safety.hpp"
#include "model/roofline/pipe_ceilings.hpp"
#include "model/summary/summary_projection.hpp"

namespace irf::report {
namespace {

using model::KernelRecord;
using Cell = std::function<std::string(const KernelRecord&)>;

// Below this many rows a thread each is not worth starting.
constexpr std::size_t k_rows_per_thread = 512;
// Rows formatted before they are given out: a few MB of text, enough for every thread.
constexpr std::size_t k_rows_per_batch = 8 * k_rows_per_thread;

// Ten significant digits: exact enough for a spreadsheet, stable across platforms. to_chars is
// printf's "%.10g" by the standard's definition, without its locale and format parsing.
std::string num(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) {
        return "";
    }
    char buffer[64];
    const auto end =
        std::to_chars(buffer, buffer + sizeof buffer, *v, std::chars_format::general, 10);
    return std::string(buffer, end.ptr);
}

std::string dim3(const std::array<std::uint32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

// A launch value, blank when the profile does not know the launch (an import's grid 0).
template <typename F> Cell launch(F f) {
    return [f](const KernelRecord& k) {
        return model::launch_known(k.launch) ? f(k.launch) : std::string();
    };
}

template <typename F> Cell analysed(F f) {
    return [f](const KernelRecord& k) { return k.analysis ? f(*k.analysis) : std::string(); };
}

template <typename F> Cell irm(F f) {
    return analysed([f](const model::KernelAnalysis& a) { return a.irm ? f(*a.irm) : ""; });
}

template <typename F> Cell flops(F f) {
    return analysed([f](const model::KernelAnalysis& a) { return a.flops ? f(*a.flops) : ""; });
}

// A pipe's share of its peak, "" when the pipe is not in the kernel's mix.
std::string pipe_pct(const model::KernelAnalysis& a, const std::string& pipe) {
    if (!a.pipes) {
        return "";
    }
    const auto it = a.pipes->by_pipe.find(pipe);
    return it == a.pipes->by_pipe.end() ? "" : num(it->second.pct);
}

std::vector<std::pair<std::string, Cell>> base_columns() {
    using A = model::KernelAnalysis;
    using I = model::IrmResult;
    using F = model::FlopsResult;
    std::vector<std::pair<std::string, Cell>> c = {
        {"kernel", [](const KernelRecord& k) { return k.name; }},
        // Unknown is blank, never a value (docs/tools.md, "irf-report csv"): an import without
        // launch columns has no grid, block, shared memory or registers, one without a
        // duration no time, and a point without time no % of roofline.
        {"grid", launch([](const model::LaunchConfig& l) { return dim3(l.grid); })},
        {"block", launch([](const model::LaunchConfig& l) { return dim3(l.block); })},
        {"smem_bytes",
         launch([](const model::LaunchConfig& l) { return std::to_string(l.smem_bytes); })},
        {"regs", launch([](const model::LaunchConfig& l) {
             return l.regs > 0 ? std::to_string(l.regs) : std::string(); // 0: not in the files
         })},
        {"launches", [](const KernelRecord& k) { return std::to_string(k.launches); }},
        {"profiled_launches",
         [](const KernelRecord& k) { return std::to_string(k.profiled_launches); }},
        {"time_total_ns",
         [](const KernelRecord& k) { return k.untimed ? "" : num(k.time_ns.total); }},
        {"time_mean_ns",
         [](const KernelRecord& k) { return k.untimed ? "" : num(k.time_ns.mean); }},
        {"gips_warp", irm([](const I& r) { return num(r.gips_warp); })},
        {"gips_thread", irm([](const I& r) { return num(r.gips_thread); })},
        {"ii_l1", irm([](const I& r) { return num(r.ii.l1); })},
        {"ii_l2", irm([](const I& r) { return num(r.ii.l2); })},
        {"ii_hbm", irm([](const I& r) { return num(r.ii.hbm); })},
        {"roofline_gips_l1", irm([](const I& r) { return num(r.roofline_gips.l1); })},
        {"roofline_gips_l2", irm([](const I& r) { return num(r.roofline_gips.l2); })},
        {"roofline_gips_hbm", irm([](const I& r) { return num(r.roofline_gips.hbm); })},
        {"bound", irm([](const I& r) { return r.bound; })},
        {"roofline_pct",
         irm([](const I& r) { return r.bound.empty() ? "" : num(r.roofline_pct); })},
        {"global_intensity",
         analysed([](const A& a) { return a.walls.global ? num(a.walls.global->intensity) : ""; })},
        {"global_pattern",
         analysed([](const A& a) { return a.walls.global ? a.walls.global->pattern : ""; })},
        {"shared_intensity",
         analysed([](const A& a) { return a.walls.shared ? num(a.walls.shared->intensity) : ""; })},
        {"shared_conflict_ways", analysed([](const A& a) {
             return a.walls.shared ? num(a.walls.shared->conflict_ways) : "";
         })},
        {"predication", analysed([](const A& a) { return num(a.predication); })},
        {"flops_fp64", flops([](const F& f) { return num(f.fp64); })},
        {"flops_fp32", flops([](const F& f) { return num(f.fp32); })},
        {"flops_fp16", flops([](const F& f) { return num(f.fp16); })},
        {"flops_tensor", flops([](const F& f) { return num(f.tensor); })},
        {"gflops",
         [](const KernelRecord& k) {
             return k.analysis && k.analysis->flops && !k.untimed ? num(k.analysis->flops->gflops)
                                                                  : std::string();
         }},
        {"ai_l1", flops([](const F& f) { return num(f.ai.l1); })},
        {"ai_l2", flops([](const F& f) { return num(f.ai.l2); })},
        {"ai_hbm", flops([](const F& f) { return num(f.ai.hbm); })},
        {"fma_mix_ceiling_gflops", flops([](const F& f) { return num(f.fma_mix_ceiling_gflops); })},
    };
    for (const char* share : {"integer", "fp32", "fp64", "fp16", "ldst", "control", "other"}) {
        const std::string key = share;
        c.emplace_back("mix_" + key, analysed([key](const A& a) {
                           const auto it = a.mix.find(key);
                           return it == a.mix.end() ? std::string() : num(it->second);
                       }));
    }
    // Pipe sub-ceilings (docs/model.md): the mix's issue ceiling, the pipe that sets it, and
    // each pipe's share of its peak.
    c.emplace_back("pipe_ceiling_gips", analysed([](const A& a) {
                       return a.pipes ? num(a.pipes->ceiling_gips) : std::string();
                   }));
    c.emplace_back("pipe_binding",
                   analysed([](const A& a) { return a.pipes ? a.pipes->binding : std::string(); }));
    for (const auto& [cls, pipe] : model::pipe_of_class()) {
        c.emplace_back("pipe_" + pipe + "_pct",
                       analysed([key = pipe](const A& a) { return pipe_pct(a, key); }));
    }
    return c;
}

// What the CSV shows of one projection: from a Projection, or from the brief analyze kept
// instead (AnalyzeSettings::fold_projections), whose confidence is "low" or "high".
struct ProjectionCells {
    double low_ns = 0, point_ns = 0, high_ns = 0, speedup = 0;
    std::string confidence;
};

// The projection columns' targets, sorted: every target any kernel was projected onto.
std::vector<std::string> projection_targets(const model::Profile& profile) {
    std::set<std::string> targets;
    for (const KernelRecord& k : profile.kernels) {
        model::for_each_brief(profile, k, [&targets](const std::string& target, const auto&) {
            targets.insert(target);
        });
    }
    return {targets.begin(), targets.end()};
}

// A kernel's projections by column (`targets`' order); absent where it has none. The first
// projection onto a target counts, as a reader of the JSON would take it.
std::vector<std::optional<ProjectionCells>>
projection_row(const model::Profile& profile, const KernelRecord& k,
               const std::vector<std::string>& targets) {
    std::vector<std::optional<ProjectionCells>> row(targets.size());
    const auto column = [&targets](const std::string& target) {
        return static_cast<std::size_t>(std::lower_bound(targets.begin(), targets.end(), target) -
                                        targets.begin());
    };
    if (!k.analysis) {
        return row;
    }
    for (const model::Projection& p : k.analysis->projection) {
        auto& cell = row[column(p.target)];
        if (!cell) {
            cell = ProjectionCells{p.time_low_ns, p.time_point_ns, p.time_high_ns, p.speedup_point,
                                   p.confidence};
        }
    }
    for (const model::ProjectionBrief& b : k.analysis->projection_brief) {
        auto& cell = row[column(profile.brief_targets.at(b.target))];
        if (!cell) {
            cell = ProjectionCells{b.low_ns, b.point_ns, b.high_ns, b.speedup,
                                   b.low_confidence ? "low" : "high"};
        }
    }
    return row;
}

// Appends csv_field(text) to `out`; most cells (numbers, plain names) are printable ASCII with
// nothing to quote or neutralise and go in as they are, which is what csv_field would make.
void append_csv_field(std::string& out, const std::string& text) {
    const bool plain = std::all_of(text.begin(), text.end(), [](char ch) {
        return ch >= 0x20 && ch < 0x7f && ch != ',' && ch != '"';
    });
    if (plain && (text.empty() || std::string_view("=+-@").find(text[0]) == std::string::npos)) {
        out += text;
        return;
    }
    out += csv_field(text);
}

constexpr std::array<const char*, 5> k_projection_fields = {
    "time_point_ns", "time_low_ns", "time_high_ns", "speedup", "confidence"};

void append_projection_cells(std::string& out, const std::optional<ProjectionCells>& p) {
    if (!p) {
        out.append(k_projection_fields.size(), ',');
        return;
    }
    for (const std::string& cell :
         {num(p->point_ns), num(p->low_ns), num(p->high_ns), num(p->speedup), p->confidence}) {
        out += ',';
        append_csv_field(out, cell);
    }
}

/// Per-rank columns of a merged job (irf-report merge), after the base columns.
void add_rank_columns(std::vector<std::pair<std::string, Cell>>& c) {
    using S = model::RankStats;
    const std::vector<std::pair<std::string, std::function<std::string(const S&)>>> fields = {
        {"ranks_present", [](const S& s) { return std::to_string(s.present); }},
        {"rank_launches_min", [](const S& s) { return num(s.launches.min); }},
        {"rank_launches_mean", [](const S& s) { return num(s.launches.mean); }},
        {"rank_launches_max", [](const S& s) { return num(s.launches.max); }},
        {"rank_time_min_ns", [](const S& s) { return num(s.time_ns.min); }},
        {"rank_time_mean_ns", [](const S& s) { return num(s.time_ns.mean); }},
        {"rank_time_max_ns", [](const S& s) { return num(s.time_ns.max); }},
        {"slowest_rank", [](const S& s) { return std::to_string(s.time_ns.max_rank); }},
        {"rank_imbalance", [](const S& s) { return num(s.imbalance); }},
    };
    for (const auto& [name, get] : fields) {
        c.emplace_back(name, [get = get](const KernelRecord& k) {
            return k.ranks ? get(*k.ranks) : std::string();
        });
    }
}

} // namespace

/// True when a spreadsheet would take `cell` as a formula: it starts with = + - @, or with a tab
/// or CR (which some strip before looking), and is not simply a number such as -1.5.
bool looks_like_formula(const std::string& cell) {
    if (cell.empty() || std::string("=+-@\t\r").find(cell[0]) == std::string::npos) {
        return false;
    }
    char* end = nullptr;
    (void)std::strtod(cell.c_str(), &end);
    const bool number = cell[0] != '\t' && cell[0] != '\r' && end == cell.c_str() + cell.size();
    return !number;
}

std::string csv_field(const std::string& text) {
    // Control characters escaped (`\x1B`, `\n`): csv on stdout reaches a terminal, and a name
    // must not drive it or forge lines (issue #39 item 5); invalid bytes become U+FFFD first.
    std::string cell = common::printable(common::valid_utf8(text));
    // Formula injection (a kernel named "=cmd|' /C calc'!A0"): prefix a quote, which makes the
    // spreadsheet show the text as it is, and quote the field (docs/tools.md).
    const bool formula = looks_like_formula(cell);
    if (formula) {
        cell = "'" + cell;
    }
    if (!formula && cell.find_first_of(",\"\r\n") == std::string::npos) {
        return cell;
    }
    std::string out = "\"";
    for (const char ch : cell) {
        out += ch == '"' ? "\"\"" : std::string(1, ch);
    }
    return out + "\"";
}

std::string csv_number(std::optional<double> value) {
    return num(value);
}

void profile_csv_to(const model::Profile& profile, unsigned threads,
                    const std::function<void(std::string_view)>& emit) {
    auto columns = base_columns();
    if (std::any_of(profile.kernels.begin(), profile.kernels.end(),
                    [](const KernelRecord& k) { return k.ranks.has_value(); })) {
        add_rank_columns(columns);
    }
    const std::vector<std::string> targets = projection_targets(profile);
    std::string header;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        header += (i ? "," : "") + csv_field(columns[i].first);
    }
    for (const std::string& target : targets) {
        for (const char* field : k_projection_fields) {
            header += ',';
            header += csv_field("proj_" + target + "_" + field);
        }
    }
    header += k_csv_line_end;
    emit(header);
    // Rows are formatted k_rows_per_batch at a time, each batch on `threads` threads (a
    // contiguous run of kernels each, into its own text), then given out in order: the same
    // bytes on any number of threads, and never more than a batch's text held (the whole CSV of
    // 200,000 kernels was 450 MB more; docs/performance.md, "Tools' memory").
    const std::vector<KernelRecord>& kernels = profile.kernels;
    std::mutex parts_lock;
    std::vector<std::pair<std::size_t, std::string>> parts; // (first row, its rows' text)
    for (std::size_t first = 0; first < kernels.size(); first += k_rows_per_batch) {
        const std::size_t count = std::min(k_rows_per_batch, kernels.size() - first);
        parts.clear();
        common::for_each_range(
            count, threads, k_rows_per_thread, [&](std::size_t begin, std::size_t end) {
                std::string text;
                for (std::size_t r = first + begin; r < first + end; ++r) {
                    const KernelRecord& k = kernels[r];
                    for (std::size_t i = 0; i < columns.size(); ++i) {
                        if (i) {
                            text += ',';
                        }
                        append_csv_field(text, columns[i].second(k));
                    }
                    for (const auto& cells : projection_row(profile, k, targets)) {
                        append_projection_cells(text, cells);
                    }
                    text += k_csv_line_end;
                    if (r == first + begin) { // rows are alike in length: room for all at once
                        text.reserve(text.size() * (end - begin) * 5 / 4);
                    }
                }
                const std::lock_guard<std::mutex> hold(parts_lock);
                parts.emplace_back(begin, std::move(text));
            });
        std::sort(parts.begin(), parts.end());
        for (const auto& [begin, text] : parts) {
            emit(text);
        }
    }
}

std::string profile_csv(const model::Profile& profile, unsigned threads) {
    std::string out;
    profile_csv_to(profile, threads, [&out](std::string_view part) { out.append(part); });
    return out;
}

} // namespace irf::report
