// SPDX-License-Identifier: Apache-2.0
// irf-report check-projection: a profile recorded on one GPU, projected onto a second, against
// the kernels' durations measured on that second GPU (issue 37; docs/validation/projection.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/profile/profile.hpp"
#include "tools/irf_report/naive_scaling.hpp"

namespace irf::report {

/// One kernel found in both profiles, with its projection onto the measured GPU. Times are per
/// launch: the projection scales the recorded kernel's total, so each predicted value is the
/// recorded mean times (projected time / recorded total); launch counts may differ.
struct ProjectedKernel {
    std::string name;               ///< demangled
    model::LaunchConfig launch;     ///< of the recorded kernel
    std::uint64_t launches = 0;     ///< of the recorded kernel (the totals' weight)
    double recorded_mean_ns = 0;    ///< on the recorded GPU
    double predicted_mean_ns = 0;   ///< the projection's point
    double low_ns = 0, high_ns = 0; ///< the projection's interval
    /// The model's own interval, before the calibrated widening (model::Projection time_low/high)
    double model_low_ns = 0, model_high_ns = 0;
    double measured_mean_ns = 0;  ///< on the measured GPU
    double measured_total_ns = 0; ///< the weight of the time-weighted figures
    double error = 0;             ///< (predicted - measured) / measured
    bool inside = false;          ///< low <= measured <= high
    std::string bound_source, bound_target, confidence;
    NaivePredictions naive; ///< per launch, from the recorded mean and bound_source
};

/// The figures issue 37 asks for, over the kernels compared.
struct ProjectionSummary {
    std::size_t compared = 0;
    double mape = 0;                 ///< mean of |error|
    double weighted_mape = 0;        ///< |error| weighted by measured time
    double inside_share = 0;         ///< kernels inside their interval
    double weighted_inside = 0;      ///< measured time inside its interval
    std::size_t high_confidence = 0; ///< kernels the model projects with high confidence
    double high_confidence_mape = 0; ///< their mean |error|
    double recorded_total_ns = 0;    ///< sum over compared kernels of recorded mean x launches
    double predicted_total_ns = 0;
    double measured_total_ns = 0;
    NaiveMape naive; ///< the naive scalings' MAPE on the same kernels (issue 54 item 4)
};

/// A whole check: the kernels compared (by measured time, longest first), those left out and
/// why, and the summary.
struct ProjectionCheck {
    std::string target; ///< the projection target, as the analysis names it
    std::vector<ProjectedKernel> kernels;
    std::vector<std::string> left_out; ///< "name: reason"
    ProjectionSummary summary;
};

/// The projection of `k` onto `target` (the only one when `target` is empty), or null.
[[nodiscard]] const model::Projection* projection_onto(const model::KernelRecord& k,
                                                       const std::string& target);

/// Compares `recorded` (analysed, with a projection onto the measured GPU in each kernel:
/// the only one, or the one named `target`) with `measured` kernel by kernel (name and launch
/// configuration). A kernel without a time on either side, or without that projection, is left
/// out with its reason. Each kernel is also scaled by `factors` (the naive baselines; unknown
/// when 0). A kernel launched once is left out (its time includes lazy module loading) unless
/// `single_launches` (public data whose runs are no first launches).
[[nodiscard]] ProjectionCheck check_projection(const model::Profile& recorded,
                                               const model::Profile& measured,
                                               const std::string& target,
                                               const NaiveFactors& factors = {},
                                               bool single_launches = false);

/// The check as text (or a Markdown table when `markdown`): a header naming both GPUs, the
/// `top` longest kernels, misses over 25%, and the summary lines (the second: the naive
/// scalings' MAPE and whether the model beats each).
[[nodiscard]] std::string projection_check_text(const ProjectionCheck& check,
                                                const model::Profile& recorded,
                                                const model::Profile& measured, std::size_t top,
                                                bool markdown);

/// The check as JSON (every kernel, left-out reasons, summary), for tests and scripts.
[[nodiscard]] std::string projection_check_json(const ProjectionCheck& check);

} // namespace irf::report
