// SPDX-License-Identifier: Apache-2.0
// Timing and sampling parts of the text summary (model/summary/summary_samples.hpp).
#include "model/summary/summary_samples.hpp"

#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "common/time_format.hpp"
#include "model/profile/duration_clusters.hpp"

namespace irf::model {

using common::format_time;
using common::string_printf;

std::string max_cell(const KernelRecord& k) {
    if (k.first_launch_ns && *k.first_launch_ns > k.time_ns.max) {
        return format_time(*k.first_launch_ns) + "*";
    }
    return format_time(k.time_ns.max);
}

std::string sample_spread(const KernelRecord& k) {
    const std::optional<double> share = sampled_time_share(k.duration_clusters);
    if (!share || k.profiled_launches == 0) {
        return "";
    }
    std::size_t sampled = 0;
    for (const DurationCluster& c : k.duration_clusters) {
        sampled += c.profiled > 0 ? 1 : 0;
    }
    const DurationCluster& lo = k.duration_clusters.front();
    const DurationCluster& hi = k.duration_clusters.back();
    const std::uint64_t n = k.profiled_launches;
    return string_printf("%llu sample%s for launches of %s - %s (%zu duration clusters, %zu "
                         "sampled): the sampled clusters hold %.0f%% of its time",
                         static_cast<unsigned long long>(n), n == 1 ? "" : "s",
                         format_time(lo.min_ns).c_str(), format_time(hi.max_ns).c_str(),
                         k.duration_clusters.size(), sampled, 100.0 * *share);
}

std::string estimate_text(const KernelRecord& k) {
    if (k.estimated_launches == 0) {
        return "";
    }
    const std::string error =
        k.estimate_error_ns ? "+/- " + format_time(*k.estimate_error_ns) + " (one standard error)"
                            : "error unknown (fewer than two timed launches)";
    return string_printf("total %s is an estimate: %llu untimed launch%s (IRF_TIMING=sampled or "
                         "IRF_GRAPH_TIMING=graphs) at the mean of the timed ones, %s",
                         format_time(k.time_ns.total).c_str(),
                         static_cast<unsigned long long>(k.estimated_launches),
                         k.estimated_launches == 1 ? "" : "es", error.c_str());
}

std::string sampling_section(const std::vector<const KernelRecord*>& shown) {
    std::string out;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const KernelRecord& k = *shown[i];
        const std::string spread = sample_spread(k);
        if (!spread.empty()) {
            out += string_printf("  %-4zu %s\n", i + 1, spread.c_str());
        }
        const std::string estimate = estimate_text(k);
        if (!estimate.empty()) {
            out += string_printf("  %-4zu %s\n", i + 1, estimate.c_str());
        }
        if (k.imputed_launches > 0) {
            out += string_printf("  %-4zu %llu profiled launch%s imputed at the mean of the "
                                 "others (no gpu__time_duration in the sample)\n",
                                 i + 1, static_cast<unsigned long long>(k.imputed_launches),
                                 k.imputed_launches == 1 ? "" : "es");
        }
        for (const std::string& note : k.notes) {
            if (note.rfind(k_tensor_types_note, 0) == 0) {
                out += string_printf("  %-4zu %s\n", i + 1, common::printable(note).c_str());
            }
        }
    }
    return out.empty() ? out : "\nSamples and times (by kernel #):\n" + out;
}

std::string collectives_section(const std::vector<const KernelRecord*>& kernels,
                                const std::vector<std::string>& labels) {
    std::string out;
    double total = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        total += kernels[i]->time_ns.total;
        out += string_printf("  %-40s %9s %8llu  %s\n",
                             common::utf8_prefix(common::printable(labels[i]), 40).c_str(),
                             format_time(kernels[i]->time_ns.total).c_str(),
                             static_cast<unsigned long long>(kernels[i]->launches),
                             kernels[i]->no_counters.empty()
                                 ? "profiled"
                                 : common::printable(kernels[i]->no_counters).c_str());
    }
    if (out.empty()) {
        return out;
    }
    return "\nCollectives (overlap compute; not in the kernel total above): " + format_time(total) +
           "\n" +
           string_printf("  %-40s %9s %8s  %s\n", "kernel", "total", "launches", "counters") + out;
}

} // namespace irf::model
