// SPDX-License-Identifier: Apache-2.0
// A projection against measured durations (tools/irf_report/projection_check.hpp).
#include "tools/irf_report/projection_check.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

using model::KernelRecord;

/// Errors over this are misses the report explains (issue 37: "every miss over 25%").
constexpr double k_miss = 0.25;

/// Why `recorded` / `measured` cannot be compared, or "" when they can.
std::string why_not(const KernelRecord& recorded, const KernelRecord& measured,
                    const model::Projection* projection, bool single_launches) {
    if (!(recorded.time_ns.mean > 0) || !(recorded.time_ns.total > 0)) {
        return "no recorded time";
    }
    if (!(measured.time_ns.mean > 0)) {
        return "no measured time";
    }
    if (!single_launches && (recorded.launches < 2 || measured.launches < 2)) {
        return "a single launch (its time includes lazy module loading)";
    }
    if (recorded.profiled_launches == 0) {
        return "no counters on the recorded GPU" +
               (recorded.no_counters.empty() ? std::string() : " (" + recorded.no_counters + ")");
    }
    if (projection == nullptr || !(projection->time_point_ns > 0)) {
        return "no projection onto the measured GPU";
    }
    return "";
}

ProjectedKernel compare_one(const KernelRecord& recorded, const KernelRecord& measured,
                            const model::Projection& p, const NaiveFactors& factors) {
    ProjectedKernel out;
    out.name = recorded.name;
    out.launch = recorded.launch;
    out.launches = recorded.launches;
    out.recorded_mean_ns = recorded.time_ns.mean;
    const double per_launch = recorded.time_ns.mean / recorded.time_ns.total;
    out.predicted_mean_ns = p.time_point_ns * per_launch;
    const auto [low, high] = model::checked_interval(p);
    out.low_ns = low * per_launch;
    out.high_ns = high * per_launch;
    out.model_low_ns = p.time_low_ns * per_launch;
    out.model_high_ns = p.time_high_ns * per_launch;
    out.measured_mean_ns = measured.time_ns.mean;
    out.measured_total_ns = std::max(measured.time_ns.total, measured.time_ns.mean);
    out.error = (out.predicted_mean_ns - out.measured_mean_ns) / out.measured_mean_ns;
    out.inside = out.low_ns <= out.measured_mean_ns && out.measured_mean_ns <= out.high_ns;
    out.bound_source = p.bound_source;
    out.bound_target = p.bound_target;
    out.confidence = p.confidence;
    out.naive = naive_predictions(out.recorded_mean_ns, p.bound_source, factors);
    return out;
}

ProjectionSummary summarize(const std::vector<ProjectedKernel>& kernels,
                            const NaiveFactors& factors) {
    ProjectionSummary s;
    s.compared = kernels.size();
    NaiveErrorSum naive(factors);
    for (const ProjectedKernel& k : kernels) {
        naive.add(k.naive, k.measured_mean_ns);
    }
    s.naive = naive.mape();
    if (kernels.empty()) {
        return s;
    }
    double weight = 0, errors = 0, weighted = 0, inside = 0, weighted_inside = 0, high = 0;
    for (const ProjectedKernel& k : kernels) {
        const double launches = static_cast<double>(k.launches);
        errors += std::fabs(k.error);
        weighted += std::fabs(k.error) * k.measured_total_ns;
        weight += k.measured_total_ns;
        inside += k.inside ? 1 : 0;
        if (k.confidence == "high") {
            ++s.high_confidence;
            high += std::fabs(k.error);
        }
        weighted_inside += k.inside ? k.measured_total_ns : 0;
        s.recorded_total_ns += k.recorded_mean_ns * launches;
        s.predicted_total_ns += k.predicted_mean_ns * launches;
        s.measured_total_ns += k.measured_mean_ns * launches;
    }
    const double count = static_cast<double>(kernels.size());
    s.mape = errors / count;
    s.high_confidence_mape =
        s.high_confidence > 0 ? high / static_cast<double>(s.high_confidence) : 0;
    s.inside_share = inside / count;
    s.weighted_mape = weight > 0 ? weighted / weight : s.mape;
    s.weighted_inside = weight > 0 ? weighted_inside / weight : s.inside_share;
    return s;
}

/// "24 no counters on the recorded GPU (graph node: timed only), 4 not in the measured profile":
/// the left-out reasons (the text after each "name: "), counted, most frequent first.
std::string left_out_counts(const std::vector<std::string>& left_out) {
    std::map<std::string, std::size_t> counts;
    for (const std::string& line : left_out) {
        const auto colon = line.find(": "); // demangled names hold "::", never ": "
        ++counts[colon == std::string::npos ? line : line.substr(colon + 2)];
    }
    std::vector<std::pair<std::string, std::size_t>> ordered(counts.begin(), counts.end());
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [reason, count] : ordered) {
        out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + reason;
    }
    return out;
}

std::string interval(const ProjectedKernel& k) {
    return format_time(k.low_ns) + " - " + format_time(k.high_ns);
}

std::string bound(const ProjectedKernel& k) {
    const auto name = [](const std::string& b) { return b.empty() ? std::string("?") : b; };
    return name(k.bound_source) + " -> " + name(k.bound_target);
}

void text_table(std::ostringstream& out, const std::vector<ProjectedKernel>& rows,
                const std::map<std::string, std::string>& labels, bool markdown) {
    if (markdown) {
        out << "| kernel | recorded | predicted | interval | measured | error | inside | bound "
               "|\n|---|---:|---:|---:|---:|---:|---|---|\n";
        for (const ProjectedKernel& k : rows) {
            out << "| " << common::markdown_code(labels.at(k.name)) << " | "
                << format_time(k.recorded_mean_ns) << " | " << format_time(k.predicted_mean_ns)
                << " | " << interval(k) << " | " << format_time(k.measured_mean_ns) << " | "
                << signed_percent(k.error) << " | " << (k.inside ? "yes" : "no") << " | "
                << bound(k) << " |\n";
        }
        return;
    }
    out << common::string_printf("  %-40s %10s %10s %23s %10s %8s %-6s %s\n", "kernel", "recorded",
                                 "predicted", "interval", "measured", "error", "inside",
                                 "bound (recorded -> measured GPU)");
    for (const ProjectedKernel& k : rows) {
        out << common::string_printf(
            "  %-40s %10s %10s %23s %10s %8s %-6s %s\n", labels.at(k.name).c_str(),
            format_time(k.recorded_mean_ns).c_str(), format_time(k.predicted_mean_ns).c_str(),
            interval(k).c_str(), format_time(k.measured_mean_ns).c_str(),
            signed_percent(k.error).c_str(), k.inside ? "yes" : "no", bound(k).c_str());
    }
}

} // namespace

const model::Projection* projection_onto(const KernelRecord& k, const std::string& target) {
    const auto& all = model::projections_of(k.analysis);
    if (target.empty()) {
        return all.size() == 1 ? &all.front() : nullptr;
    }
    for (const model::Projection& p : all) {
        if (p.target == target) {
            return &p;
        }
    }
    return nullptr;
}

ProjectionCheck check_projection(const model::Profile& recorded, const model::Profile& measured,
                                 const std::string& target, const NaiveFactors& factors,
                                 bool single_launches) {
    ProjectionCheck check;
    check.target = target;
    const KernelMatch match = match_kernels(recorded.kernels, measured.kernels);
    for (const auto& [i, j] : match.pairs) {
        const KernelRecord& r = recorded.kernels[i];
        const model::Projection* p = projection_onto(r, target);
        const std::string reason = why_not(r, measured.kernels[j], p, single_launches);
        if (!reason.empty()) {
            check.left_out.push_back(r.name + ": " + reason);
            continue;
        }
        if (check.target.empty()) {
            check.target = p->target;
        }
        check.kernels.push_back(compare_one(r, measured.kernels[j], *p, factors));
    }
    for (std::size_t i : match.only_before) {
        check.left_out.push_back(recorded.kernels[i].name + ": not in the measured profile");
    }
    for (std::size_t j : match.only_after) {
        check.left_out.push_back(measured.kernels[j].name + ": not in the recorded profile");
    }
    std::stable_sort(check.kernels.begin(), check.kernels.end(),
                     [](const ProjectedKernel& a, const ProjectedKernel& b) {
                         return a.measured_total_ns > b.measured_total_ns;
                     });
    check.summary = summarize(check.kernels, factors);
    return check;
}

std::string projection_check_text(const ProjectionCheck& check, const model::Profile& recorded,
                                  const model::Profile& measured, std::size_t top, bool markdown) {
    std::ostringstream out;
    out << "recorded: " << describe_gpu(recorded.gpu) << "\n"
        << "measured: " << describe_gpu(measured.gpu) << "\n"
        << "projected onto: " << common::printable(check.target) << "\n\n";
    std::vector<KernelRecord> named;
    for (const ProjectedKernel& k : check.kernels) {
        named.emplace_back().name = k.name;
    }
    const auto labels = name_labels(named, {}, common::NameMode::function, 40);
    const std::size_t shown = std::min(top, check.kernels.size());
    text_table(out, {check.kernels.begin(), check.kernels.begin() + static_cast<long>(shown)},
               labels, markdown);
    if (shown < check.kernels.size()) {
        out << "(" << check.kernels.size() - shown << " more kernels; --top to show them)\n";
    }
    std::size_t misses = 0;
    for (const ProjectedKernel& k : check.kernels) {
        if (std::fabs(k.error) > k_miss) {
            out << (misses++ == 0 ? "\nmisses over 25% (error, bound, confidence, interval):\n"
                                  : "")
                << "  " << labels.at(k.name) << ": " << signed_percent(k.error) << ", " << bound(k)
                << ", " << (k.confidence.empty() ? "?" : k.confidence) << " confidence, "
                << (k.inside ? "inside" : "outside") << "\n";
        }
    }
    if (!check.left_out.empty()) {
        out << "\nleft out: " << left_out_counts(check.left_out) << "\n";
    }
    const ProjectionSummary& s = check.summary;
    out << common::string_printf(
        "\n%zu kernels compared, %zu left out; error per launch: MAPE %.1f%%, time-weighted "
        "%.1f%% (%zu with high confidence: %.1f%%); inside the interval: %.0f%% of kernels, %.0f%% "
        "of measured time; %zu miss%s over 25%%\n",
        s.compared, check.left_out.size(), 100 * s.mape, 100 * s.weighted_mape, s.high_confidence,
        100 * s.high_confidence_mape, 100 * s.inside_share, 100 * s.weighted_inside, misses,
        misses == 1 ? "" : "es");
    out << naive_comparison(s.mape, s.naive) << "\n";
    out << "total over the compared kernels (recorded launches): recorded "
        << format_time(s.recorded_total_ns) << ", predicted " << format_time(s.predicted_total_ns)
        << ", measured " << format_time(s.measured_total_ns) << "\n";
    return out.str();
}

std::string projection_check_json(const ProjectionCheck& check) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const ProjectedKernel& k : check.kernels) {
        kernels.push_back({{"name", k.name},
                           {"recorded_mean_ns", k.recorded_mean_ns},
                           {"predicted_mean_ns", k.predicted_mean_ns},
                           {"low_ns", k.low_ns},
                           {"high_ns", k.high_ns},
                           {"model_low_ns", k.model_low_ns},
                           {"model_high_ns", k.model_high_ns},
                           {"measured_mean_ns", k.measured_mean_ns},
                           {"measured_total_ns", k.measured_total_ns},
                           {"error", k.error},
                           {"inside", k.inside},
                           {"bound_source", k.bound_source},
                           {"bound_target", k.bound_target},
                           {"confidence", k.confidence},
                           {"sm_clock_ns", k.naive.sm_clock_ns},
                           {"dram_ns", k.naive.dram_ns},
                           {"by_bound_ns", k.naive.by_bound_ns}});
    }
    const ProjectionSummary& s = check.summary;
    nlohmann::json out = {{"target", check.target},
                          {"kernels", kernels},
                          {"left_out", check.left_out},
                          {"summary",
                           {{"compared", s.compared},
                            {"mape", s.mape},
                            {"weighted_mape", s.weighted_mape},
                            {"inside_share", s.inside_share},
                            {"weighted_inside", s.weighted_inside},
                            {"high_confidence", s.high_confidence},
                            {"high_confidence_mape", s.high_confidence_mape},
                            {"recorded_total_ns", s.recorded_total_ns},
                            {"predicted_total_ns", s.predicted_total_ns},
                            {"measured_total_ns", s.measured_total_ns}}}};
    put_naive_json(out["summary"], s.naive);
    return out.dump(1) + "\n";
}

} // namespace irf::report
