// SPDX-License-Identifier: Apache-2.0
#include "model/profile/kernel_labels.hpp"

#include <algorithm>
#include <numeric>

namespace irf::model {

namespace {

// "132" for (132, 1, 1), "64x8" for (64, 8, 1): trailing unit dimensions say nothing.
std::string dims(const std::array<std::uint32_t, 3>& d) {
    std::string out = std::to_string(d[0]);
    const std::size_t shown = d[2] != 1 ? 3 : d[1] != 1 ? 2 : 1;
    for (std::size_t i = 1; i < shown; ++i) {
        out += "x" + std::to_string(d[i]);
    }
    return out;
}

} // namespace

std::string launch_shape(const LaunchConfig& launch) {
    return "g" + dims(launch.grid) + " b" + dims(launch.block);
}

std::vector<std::string> kernel_labels(const std::vector<KernelRecord>& kernels,
                                       common::NameMode mode, std::size_t max_chars) {
    std::vector<common::KernelNames> names;
    names.reserve(kernels.size());
    for (const KernelRecord& k : kernels) {
        names.push_back({k.name, k.mangled, launch_shape(k.launch)});
    }
    return common::display_names(names, mode, max_chars);
}

std::optional<KernelOrder> parse_kernel_order(std::string_view text) {
    if (text == "time") {
        return KernelOrder::time;
    }
    if (text == "roofline") {
        return KernelOrder::roofline;
    }
    if (text == "name") {
        return KernelOrder::name;
    }
    if (text == "recoverable") {
        return KernelOrder::recoverable;
    }
    return std::nullopt;
}

namespace {

// % of the Instruction Roofline, -1 where the kernel has none (so it sorts last).
double roofline_pct(const KernelRecord& k) {
    return k.analysis && k.analysis->irm && !k.analysis->irm->bound.empty()
               ? k.analysis->irm->roofline_pct
               : -1.0;
}

} // namespace

std::optional<double> recoverable_ns(const KernelRecord& k) {
    if (!k.analysis || !k.analysis->irm || k.analysis->irm->bound.empty()) {
        return std::nullopt;
    }
    const double attained = std::clamp(k.analysis->irm->roofline_pct, 0.0, 100.0) / 100.0;
    return std::max(0.0, k.time_ns.total) * (1.0 - attained);
}

std::vector<std::size_t> kernel_order(const std::vector<KernelRecord>& kernels,
                                      const std::vector<std::string>& labels, KernelOrder order) {
    std::vector<std::size_t> out(kernels.size());
    std::iota(out.begin(), out.end(), std::size_t{0});
    std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
        switch (order) {
        case KernelOrder::roofline:
            return roofline_pct(kernels[a]) > roofline_pct(kernels[b]);
        case KernelOrder::name:
            return labels[a] < labels[b];
        case KernelOrder::recoverable:
            return recoverable_ns(kernels[a]).value_or(-1.0) >
                   recoverable_ns(kernels[b]).value_or(-1.0);
        case KernelOrder::time:
            break;
        }
        return kernels[a].time_ns.total > kernels[b].time_ns.total;
    });
    return out;
}

} // namespace irf::model
