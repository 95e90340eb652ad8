// SPDX-License-Identifier: Apache-2.0
// One kernel's stats as the profile's record (intercept/collector_record.hpp).
#include "intercept/collector_record.hpp"

#include "common/string_printf.hpp"
#include "common/time_format.hpp"
#include "intercept/nvtx_stack.hpp"
#include "model/profile/timing_estimate.hpp"
#include "model/roofline/counters.hpp"
#include "model/summary/summary_samples.hpp"

namespace irf::intercept {
namespace {

model::TimeStats to_time_stats(const DurationAccumulator& timed, double total) {
    model::TimeStats t;
    if (timed.count == 0) {
        return t;
    }
    t.total = total;
    t.min = timed.min;
    t.max = timed.max;
    t.mean = timed.total / static_cast<double>(timed.count);
    return t;
}

/// Adds the tensor-types sample's ops by input type to the kernel's counters (IRF_TENSOR_TYPES).
/// Ops per tensor instruction follow the instruction shapes the kernel's code issues, not its
/// problem size, so they are scaled by the kernel's tensor instructions over the sample's: a
/// launch of another shape still gives the right mix. Without instructions on either side, by
/// the kernel's samples over the tensor-types samples.
void merge_tensor_types(const KernelStats& k, model::KernelRecord& r) {
    if (k.tensor_profiled == 0 || r.profiled_launches == 0 || model::has_tensor_types(r.counters)) {
        return;
    }
    const std::string from = std::string(model::k_tensor_types_note) + "a second sample (" +
                             std::to_string(k.tensor_profiled) + " launch" +
                             (k.tensor_profiled == 1 ? "" : "es") + ", IRF_TENSOR_TYPES=auto)";
    if (!model::has_tensor_types(k.tensor_counters)) {
        r.notes.push_back(from + ": it counted none (no per-type tensor counters on this chip)");
        return;
    }
    const auto inst = r.counters.find("inst_tensor");
    const auto sample_inst = k.tensor_counters.find("inst_tensor");
    const bool by_inst = inst != r.counters.end() && inst->second > 0 &&
                         sample_inst != k.tensor_counters.end() && sample_inst->second > 0;
    const double scale =
        by_inst ? inst->second / sample_inst->second
                : static_cast<double>(r.profiled_launches) / static_cast<double>(k.tensor_profiled);
    for (const auto& [name, value] : k.tensor_counters) {
        if (name != "inst_tensor") {
            r.counters[name] = value * scale;
        }
    }
    r.notes.push_back(from + common::string_printf(", scaled x%.3g by %s", scale,
                                                   by_inst ? "tensor instructions" : "launches"));
}

/// Final counters of one kernel: samples after the first launch when there are any, else the
/// provisional first-launch sample. Rates (clock_hz) are averaged, not summed; time_ns comes
/// from activity durations when the backend did not measure it.
void finish_counters(const KernelStats& k, model::KernelRecord& r) {
    const bool warm = k.profiled > 0;
    r.counters = warm ? k.counters : k.cold_counters;
    r.profiled_launches = warm ? k.profiled : k.cold_profiled;
    const double profiled_ns = warm ? k.profiled_ns : k.cold_profiled_ns;
    if (r.profiled_launches == 0) {
        return;
    }
    const auto clock = r.counters.find("clock_hz");
    if (clock != r.counters.end()) {
        clock->second /= static_cast<double>(r.profiled_launches);
    }
    if (r.counters.count("time_ns") == 0 && profiled_ns > 0) {
        r.counters["time_ns"] = profiled_ns;
    }
    if (!warm) {
        r.notes.push_back("profiled only at a first launch: its time includes lazy module loading");
    } else if (k.launch_samples > 0) {
        r.launch_samples = k.launch_samples;
        r.pass_launches = k.pass_launches;
        r.notes.push_back(common::string_printf(
            "%llu of %llu sample%s gathered one pass per launch over %llu launches (IRF_REPLAY): "
            "each counter was read on one of them; those launches ran %s a launch under their "
            "passes and count at the mean of the launches without counters",
            static_cast<unsigned long long>(k.launch_samples),
            static_cast<unsigned long long>(r.profiled_launches),
            r.profiled_launches == 1 ? "" : "s", static_cast<unsigned long long>(k.pass_launches),
            k.passes.count == 0
                ? "an unknown time"
                : common::format_time(k.passes.total / static_cast<double>(k.passes.count))
                      .c_str()));
    }
    merge_tensor_types(k, r);
}

/// Profiled launches of a region whose counters did not carry their own duration.
std::uint64_t unmeasured(const RegionStats& region) {
    return region.replayed.count > region.measured_timed
               ? region.replayed.count - region.measured_timed
               : 0;
}

/// Mean duration of the launches after the first in `a` and `b` together (0 without any).
double mean_of(const DurationAccumulator& a, const DurationAccumulator& b) {
    const std::uint64_t count = a.count + b.count;
    return count == 0 ? 0 : (a.total + b.total) / static_cast<double>(count);
}

/// The application's time for a region's profiled launches without their own duration (counters
/// without gpu__time_duration): a replay pass (with the save/restore around it) is not the kernel
/// as the application ran it, so each counts at the mean of the region's launches after the first
/// (unprofiled, and profiled at their own duration), else of the kernel's, else at its pass
/// duration (docs/output-schema.md, time_ns). Launches with their own duration are in
/// region.time_ns already.
double profiled_time_ns(const KernelStats& k, const RegionStats& region) {
    const std::uint64_t count = unmeasured(region);
    if (count == 0) {
        return 0;
    }
    double like = mean_of(region.warm, region.own);
    if (like == 0) {
        like = mean_of(k.warm, k.own);
    }
    if (like == 0) {
        return region.replayed.total - region.measured_replay_ns;
    }
    return static_cast<double>(count) * like;
}

/// Time of a region's launches as the application ran them.
double region_time_ns(const KernelStats& k, const RegionStats& region) {
    return region.time_ns + profiled_time_ns(k, region);
}

/// The kernel's total: the sum over its regions (launches outside every range are the root's).
double kernel_total_ns(const KernelStats& k) {
    double total = 0;
    for (const auto& [path, region] : k.regions) {
        total += region_time_ns(k, region);
    }
    return total;
}

/// The kernel's NVTX paths (launches outside every range are not listed), the profiled count
/// taken from the same samples as finish_counters.
std::vector<model::KernelRegion> kernel_regions(const KernelStats& k) {
    std::vector<model::KernelRegion> out;
    for (const auto& [path, region] : k.regions) {
        if (path != nvtx::k_root) {
            out.push_back({nvtx::path_name(path), region.launches, region_time_ns(k, region),
                           k.profiled > 0 ? region.profiled : region.cold_profiled});
        }
    }
    return out;
}

/// Says which durations min/mean/max stand for when launches after the first were profiled.
void note_profiled_durations(const KernelStats& k, model::KernelRecord& r) {
    if (k.own.count == 0) {
        return;
    }
    const double own_mean = k.own.total / static_cast<double>(k.own.count);
    if (k.warm.count > 0) {
        r.notes.push_back(common::string_printf(
            "%llu launch%s under counters left out of min/mean/max (in the total at %s own "
            "duration): under counters %s a launch, unprofiled %s",
            static_cast<unsigned long long>(k.own.count), k.own.count == 1 ? "" : "es",
            k.own.count == 1 ? "its" : "their", common::format_time(own_mean).c_str(),
            common::format_time(r.time_ns.mean).c_str()));
    } else {
        r.notes.push_back("every launch after the first was profiled: min/mean/max are durations "
                          "under counters (ncu's gpu__time_duration), longer than the kernel "
                          "unprofiled");
    }
}

} // namespace

/// The counters' absence explained, most specific first: a filter the user set or the default
/// exclusion of collectives, then how the launches ran, then the sample budget.
std::string no_counters_reason(std::uint16_t why, bool collective) {
    if ((why & k_why_excluded) != 0) {
        return collective ? "excluded: collective" : "excluded: IRF_EXCLUDE";
    }
    static const std::pair<std::uint16_t, const char*> k_reasons[] = {
        {k_why_filtered, "filtered: IRF_KERNELS"},
        {k_why_graph, "graph node: timed only"},
        {k_why_nvtx, "filtered: NVTX range"},
        {k_why_range, "outside the capture range"},
        {k_why_off, "counters off"},
        {k_why_skip, "skipped: IRF_LAUNCH_SKIP"},
        {k_why_budget, "sample budget spent: IRF_LAUNCH_COUNT"},
        {k_why_samples0, "timed only: IRF_SAMPLES=0"},
        {k_why_recur, "sample by launches given up: did not recur (IRF_REPLAY)"},
        {k_why_once, "launched once: IRF_REPLAY=launches"},
    };
    for (const auto& [bit, text] : k_reasons) {
        if ((why & bit) != 0) {
            return text;
        }
    }
    return "";
}

/// Unprofiled launches after the first are what an untimed launch is; without any, the profiled
/// launches' own durations, else the first launch (a note says so).
void add_timing_estimate(const KernelStats& k, std::uint64_t untimed, model::KernelRecord& r) {
    if (untimed == 0) {
        return;
    }
    r.launches += untimed;
    r.estimated_launches = untimed;
    const DurationAccumulator& from = k.warm.count > 0 ? k.warm : k.own.count > 0 ? k.own : k.cold;
    if (from.count == 0) {
        r.notes.push_back("no launch of it was timed: its untimed launches (IRF_TIMING=sampled, "
                          "IRF_GRAPH_TIMING=graphs) "
                          "are not in its total");
        return;
    }
    if (&from != &k.warm) {
        r.notes.push_back(&from == &k.own ? "untimed launches estimated from profiled launches' "
                                            "own durations (longer than unprofiled)"
                                          : "untimed launches estimated from the first launch "
                                            "(includes lazy module loading)");
    }
    const model::TimingEstimate e = model::estimate_untimed(
        from.count, from.total / static_cast<double>(from.count), from.m2, untimed);
    r.time_ns.total += e.time_ns;
    r.estimate_error_ns = e.error_ns;
}

model::KernelRecord to_record(const KernelStats& k, Symbolizer& symbolizer, int frames) {
    model::KernelRecord r;
    r.name = k.name;
    r.mangled = k.mangled;
    r.call_site = symbolizer.describe(k.call_stack, frames);
    r.launch = k.launch;
    r.launches = k.launches;
    const double total = kernel_total_ns(k);
    if (k.warm.count == 0 && k.own.count == 0 && k.cold.count == 0 && k.replayed.count > 0) {
        // Every timed launch ran under kernel replay: better than nothing, but flagged.
        r.time_ns = to_time_stats(k.replayed, total); // total = the replay passes here
        r.notes.push_back("timed only under kernel replay (profiled launches): durations include "
                          "replay overhead");
    } else if (k.warm.count > 0 || k.own.count > 0) {
        r.time_ns = to_time_stats(k.warm.count > 0 ? k.warm : k.own, total);
        note_profiled_durations(k, r);
        if (k.cold.count > 0) {
            r.first_launch_ns = k.cold.max; // reported, so max never hides a long first launch
            r.notes.push_back("first launch excluded from min/mean/max (lazy module loading): " +
                              common::format_time(k.cold.total));
        }
    } else if (k.cold.count > 0) {
        r.time_ns = to_time_stats(k.cold, total);
        r.notes.push_back("timed only at a first launch: includes lazy module loading");
    }
    for (const auto& [path, region] : k.regions) {
        r.imputed_launches += unmeasured(region);
    }
    finish_counters(k, r);
    r.regions = kernel_regions(k);
    if (k.clusters.size() > 1) { // a spread over 1.5x: say what the samples stand for
        r.duration_clusters = k.clusters;
    }
    r.collective = k.collective;
    if (r.profiled_launches == 0) {
        r.no_counters = no_counters_reason(k.unprofiled_why, k.collective);
    }
    return r;
}

} // namespace irf::intercept
