// SPDX-License-Identifier: Apache-2.0
// Operators (NVTX ranges) projected against published times (tools/irf_report/operator_check.hpp).
#include "tools/irf_report/operator_check.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "common/file_io.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/projection_check.hpp"

namespace irf::report {
namespace {

using model::KernelRecord;
using nlohmann::json;

/// A GPU's figure or nothing: the published-times reader's field access.
const json* member(const json& object, const char* key) {
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::string stem_of(std::string name) {
    const std::string suffix = ".py";
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        name.resize(name.size() - suffix.size());
    }
    return name;
}

/// Why `k`'s time cannot be projected onto the target, or "" when it can.
std::string why_no_operator_projection(const KernelRecord& k, const model::Projection* p) {
    if (!(k.time_ns.total > 0)) {
        return "no recorded time";
    }
    if (k.profiled_launches == 0) {
        return "no counters" + (k.no_counters.empty() ? std::string() : " (" + k.no_counters + ")");
    }
    if (p == nullptr || !(p->time_point_ns > 0)) {
        return "no projection onto the target";
    }
    return "";
}

/// What one range accumulates over its kernels (times summed over the recorded run).
struct RangeSum {
    OperatorProjection op;
    double longest_kernel_ns = 0;
    std::string missing; ///< first kernel that could not be projected, with why
};

void add_kernel(RangeSum& sum, const KernelRecord& k, double region_ns,
                const OperatorCheckSettings& s) {
    ++sum.op.kernels;
    sum.op.recorded_ns += region_ns;
    const NaivePredictions naive = naive_predictions(region_ns, "", s.factors);
    sum.op.sm_clock_ns += naive.sm_clock_ns;
    sum.op.dram_ns += naive.dram_ns;
    const model::Projection* p = projection_onto(k, s.target);
    const std::string reason = why_no_operator_projection(k, p);
    if (!reason.empty()) {
        if (sum.missing.empty()) {
            sum.missing = "kernel " + k.name + ": " + reason;
        }
        sum.op.by_bound_ns += naive.by_bound_ns; // undecided: SMs x clock
        return;
    }
    const double scale = region_ns / k.time_ns.total;
    sum.op.predicted_ns += p->time_point_ns * scale;
    const auto [low, high] = model::checked_interval(*p);
    sum.op.low_ns += low * scale;
    sum.op.high_ns += high * scale;
    sum.op.model_low_ns += p->time_low_ns * scale;
    sum.op.model_high_ns += p->time_high_ns * scale;
    sum.op.by_bound_ns += region_ns * by_bound_factor(p->bound_source, s.factors);
    if (region_ns > sum.longest_kernel_ns) {
        sum.longest_kernel_ns = region_ns;
        sum.op.bound = p->bound_source;
        sum.op.confidence = p->confidence;
    }
}

std::string top_level(const std::string& path) {
    return path.substr(0, path.find('/'));
}

void finish(OperatorProjection& op, double measured_ns, const OperatorCheckSettings& s) {
    for (double* v : {&op.recorded_ns, &op.predicted_ns, &op.low_ns, &op.high_ns, &op.model_low_ns,
                      &op.model_high_ns, &op.sm_clock_ns, &op.dram_ns, &op.by_bound_ns}) {
        *v /= s.calls;
    }
    op.measured_ns = measured_ns;
    op.error = (op.predicted_ns - measured_ns) / measured_ns;
    op.inside = op.low_ns <= measured_ns && measured_ns <= op.high_ns;
    op.launch_bound = measured_ns < s.floor_ns;
}

OperatorSummary summarize_operators(const std::vector<OperatorProjection>& ops, bool launch_bound,
                                    const NaiveFactors& factors) {
    OperatorSummary s;
    NaiveErrorSum naive(factors);
    double weight = 0, weighted = 0, weighted_inside = 0;
    for (const OperatorProjection& op : ops) {
        if (op.launch_bound != launch_bound) {
            continue;
        }
        ++s.count;
        s.mape += std::fabs(op.error);
        s.inside_share += op.inside ? 1 : 0;
        naive.add({op.sm_clock_ns, op.dram_ns, op.by_bound_ns}, op.measured_ns);
        weight += op.measured_ns;
        weighted += std::fabs(op.error) * op.measured_ns;
        weighted_inside += op.inside ? op.measured_ns : 0;
    }
    s.naive = naive.mape();
    if (s.count == 0) {
        return s;
    }
    const double n = static_cast<double>(s.count);
    s.mape /= n;
    s.inside_share /= n;
    s.weighted_mape = weighted / weight;
    s.weighted_inside = weighted_inside / weight;
    return s;
}

} // namespace

PublishedTimes load_published_times(const std::string& path, const std::string& gpu) {
    std::string text;
    if (const std::string error = common::read_file_bounded(path, text); !error.empty()) {
        throw InputError(error);
    }
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        throw InputError(path + ": not valid JSON");
    }
    const json* gpus = member(doc, "gpus");
    const json* times = gpus == nullptr ? nullptr : member(*gpus, gpu.c_str());
    if (times == nullptr || member(*times, "times_ms") == nullptr ||
        !member(*times, "times_ms")->is_object()) {
        throw InputError(path + ": no published times for GPU '" + gpu + "' (gpus." + gpu +
                         ".times_ms)");
    }
    PublishedTimes out;
    out.gpu = gpu;
    if (const json* source = member(doc, "source"); source != nullptr && source->is_object()) {
        out.source = source->value("repo", "") + "@" + source->value("commit", "");
    }
    for (const auto& [name, entry] : member(*times, "times_ms")->items()) {
        const json* mean = member(entry, "mean");
        if (mean == nullptr || !mean->is_number() || !(mean->get<double>() > 0) ||
            !std::isfinite(mean->get<double>())) {
            throw InputError(path + ": gpus." + gpu + ".times_ms." + name +
                             ".mean is not a positive number of ms");
        }
        out.ns_per_call[stem_of(name)] = mean->get<double>() * 1e6;
    }
    return out;
}

OperatorCheck check_operators(const model::Profile& recorded, const PublishedTimes& published,
                              const OperatorCheckSettings& settings) {
    std::map<std::string, RangeSum> ranges;
    for (const KernelRecord& k : recorded.kernels) {
        for (const model::KernelRegion& r : k.regions) {
            RangeSum& sum = ranges[top_level(r.path)];
            sum.op.name = top_level(r.path);
            add_kernel(sum, k, r.time_ns, settings);
        }
    }
    OperatorCheck check;
    check.target = settings.target;
    for (auto& [name, sum] : ranges) {
        const auto it = published.ns_per_call.find(name);
        if (it == published.ns_per_call.end()) {
            check.left_out.push_back(name + ": no published time");
        } else if (!sum.missing.empty()) {
            check.left_out.push_back(name + ": " + sum.missing);
        } else {
            finish(sum.op, it->second, settings);
            check.operators.push_back(sum.op);
        }
    }
    for (const auto& [name, ns] : published.ns_per_call) {
        if (ranges.count(name) == 0) {
            check.left_out.push_back(name + ": not in the recorded profile");
        }
    }
    std::stable_sort(check.operators.begin(), check.operators.end(),
                     [](const OperatorProjection& a, const OperatorProjection& b) {
                         return a.measured_ns > b.measured_ns;
                     });
    check.headline = summarize_operators(check.operators, false, settings.factors);
    check.launch_bound = summarize_operators(check.operators, true, settings.factors);
    return check;
}

} // namespace irf::report
