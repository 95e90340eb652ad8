// SPDX-License-Identifier: Apache-2.0
// Grids whose waves are not counted (docs/model.md, "Waves").
#include "model/projection/uncounted_grid.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/string_printf.hpp"
#include "model/projection/waves.hpp"

namespace irf::model {

namespace {

// The fills of a grid not recorded read as one wave of `share x sms_source` blocks, each
// resident throughout: `share` (the source's SM activity, at most 1) on the source and
// min(1, those blocks / sms_target) on the target. nullopt with a recorded grid, without the
// counter or with a share that is not a positive number.
std::optional<std::pair<double, double>> one_wave_fills(const KernelRecord& k, int sms_source,
                                                        int sms_target) {
    const auto it = k.counters.find("sm_active_share");
    if (grid_blocks(k.launch.grid) > 0 || it == k.counters.end() || sms_source <= 0 ||
        sms_target <= 0) {
        return std::nullopt;
    }
    // Summed over the profiled launches, as every counter is: their mean.
    const double mean = it->second / std::max<double>(1.0, k.profiled_launches);
    if (!(mean > 0) || !std::isfinite(mean)) {
        return std::nullopt;
    }
    const double share = std::min(1.0, mean);
    return std::pair{share, std::min(1.0, share * sms_source / sms_target)};
}

} // namespace

std::optional<std::pair<double, double>> activity_fills(const KernelRecord& k, int sms_source,
                                                        int sms_target) {
    const auto fills = one_wave_fills(k, sms_source, sms_target);
    if (!fills || fills->first > k_one_wave_activity) {
        return std::nullopt;
    }
    return fills;
}

void apply_uncounted_grid(const KernelRecord& k, const config::Ceilings& source,
                          const config::Ceilings& target, ResourceArray& source_times,
                          ResourceArray& target_times, Projection& p) {
    const double blocks = static_cast<double>(grid_blocks(k.launch.grid));
    if (blocks > 0) {
        if (target.gpu.sms > 0 && blocks < target.gpu.sms) {
            p.confidence = "low";
            p.notes.push_back("grid of " + std::to_string(static_cast<long long>(blocks)) +
                              " blocks < " + std::to_string(target.gpu.sms) +
                              " SMs on the target: idle SMs do not follow the ceilings");
        }
        return;
    }
    p.confidence = "low"; // no grid: an under-filled one would not follow the ceilings either
    const auto fills = activity_fills(k, source.gpu.sms, target.gpu.sms);
    if (!fills) {
        return;
    }
    divide_sm_side(source_times, fills->first);
    divide_sm_side(target_times, fills->second);
    p.notes.push_back(common::string_printf(
        "waves from SM activity: no grid recorded, and the source's SMs held a warp %.1f%% of "
        "the time (at most %.0f%%: one wave), so about %.1f blocks, each resident throughout; "
        "issue, FLOP and L1 times divided by the fill, %.3f on the source's %d SMs and %.3f on "
        "the target's %d",
        100 * fills->first, 100 * k_one_wave_activity, fills->first * source.gpu.sms, fills->first,
        source.gpu.sms, fills->second, target.gpu.sms));
}

void widen_for_one_wave_reading(const KernelRecord& k, const config::Ceilings& source,
                                const config::Ceilings& target, const ResourceArray& source_times,
                                const ResourceArray& target_times, double total_ns, Projection& p) {
    const auto fills = one_wave_fills(k, source.gpu.sms, target.gpu.sms);
    if (!fills || !(fills->first > k_one_wave_activity) || !(total_ns > 0)) {
        return; // none, or read as one wave already (activity_fills)
    }
    const auto [share, fill_t] = *fills;
    ResourceArray one_s = source_times;
    ResourceArray one_t = target_times;
    divide_sm_side(one_s, share);
    divide_sm_side(one_t, fill_t);
    const double busiest_s = longest_time_ns(one_s);
    const double busiest_t = longest_time_ns(one_t);
    if (!(busiest_s > 0) || !(busiest_t > 0)) {
        return;
    }
    const double at = total_ns * busiest_t / busiest_s;
    if (at >= p.time_low_ns && at <= p.time_high_ns) {
        return;
    }
    p.time_low_ns = std::min(p.time_low_ns, at);
    p.time_high_ns = std::max(p.time_high_ns, at);
    p.notes.push_back(common::string_printf(
        "grid not recorded: the source's SMs held a warp %.1f%% of the time, which a grid of many "
        "waves gives and one wave of about %.1f blocks, each resident throughout, gives too; read "
        "as one wave (fills %.3f on the source's %d SMs, %.3f on the target's %d), t = %.6g ns: "
        "the interval holds it",
        100 * share, share * source.gpu.sms, share, source.gpu.sms, fill_t, target.gpu.sms, at));
}

} // namespace irf::model
