// SPDX-License-Identifier: Apache-2.0
// Thread predication ratio (docs/model.md: IRM section 3.2) and the FP pipes' active share
// (docs/model.md, "FP active share").
#include "model/roofline/predication.hpp"

#include <algorithm>

#include "model/roofline/counters.hpp"
#include "model/roofline/flop_roofline.hpp"

namespace irf::model {

std::optional<double> predication(const Counters& counters, std::vector<std::string>& missing) {
    const auto thread = counter(counters, "inst_thread");
    const auto warp = counter(counters, "inst_warp");
    if (!thread || !warp) {
        missing.push_back("predication: counters absent: " +
                          absent_counters(counters, {"inst_thread", "inst_warp"}));
        return std::nullopt;
    }
    const auto ratio = safe_ratio(*thread, 32.0 * *warp);
    if (!ratio || *ratio <= 0) {
        missing.push_back("predication: no warp or thread instructions executed");
        return std::nullopt;
    }
    if (*ratio > 1.0 + 1e-9) {
        missing.push_back(
            "predication: inst_thread exceeds 32 x inst_warp (inconsistent counters)");
        return std::nullopt;
    }
    return std::min(*ratio, 1.0);
}

std::string fp_share_pipe(const std::string& precision) {
    if (precision == "fp32") {
        return "fma";
    }
    return precision == "fp16" || precision == "fp64" ? precision : "";
}

std::optional<double> fp_active_share(const Counters& counters, const std::string& precision) {
    const std::string pipe = fp_share_pipe(precision);
    if (pipe.empty()) {
        return std::nullopt;
    }
    const auto thread = counter(counters, "thread_pipe_" + pipe);
    const auto warp = counter(counters, "inst_pipe_" + pipe);
    const auto ratio = thread && warp ? safe_ratio(*thread, 32.0 * *warp) : std::nullopt;
    if (!ratio || *ratio <= 0 || *ratio > 1.0 + 1e-9) {
        return std::nullopt; // the kernel-wide share stands in (fp_ceiling_share)
    }
    return std::min(*ratio, 1.0);
}

double fp_ceiling_share(const Counters& counters, const std::string& precision,
                        double kernel_wide) {
    return fp_active_share(counters, precision).value_or(kernel_wide);
}

void note_fp_share_absent(const Counters& counters, std::vector<std::string>& missing) {
    std::vector<std::string> said_by_the_predication_verdict;
    const auto kernel_wide = predication(counters, said_by_the_predication_verdict);
    if (!kernel_wide || *kernel_wide >= 1.0) {
        return;
    }
    for (const auto& [precision, flops] : flops_by_precision(counters)) {
        const std::string pipe = fp_share_pipe(precision);
        if (pipe.empty() || !(flops > 0) || fp_active_share(counters, precision)) {
            continue;
        }
        const bool counted =
            counter(counters, "thread_pipe_" + pipe) && counter(counters, "inst_pipe_" + pipe);
        const std::string why = counted ? " inconsistent (the pipe issued nothing, or threads "
                                          "exceed 32 x warps)"
                                        : " absent (IRF_METRICS=pipe_mix counts them; "
                                          "thread_pipe_fp64 only on TU10x, GA100 and GH100)";
        missing.push_back("flops.active_share." + precision + ": thread_pipe_" + pipe +
                          " / inst_pipe_" + pipe + why +
                          "; Perf_ceil uses the kernel-wide predication");
    }
}

} // namespace irf::model
