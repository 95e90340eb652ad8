// SPDX-License-Identifier: Apache-2.0
// irf-report check-projection --published: a profile recorded on one GPU, its kernels summed per
// NVTX range (one range an operator, issue 57), projected onto a second GPU and compared with
// times published for that GPU, beside three naive scalings (docs/validation/projection.md).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "model/profile/profile.hpp"
#include "tools/irf_report/naive_scaling.hpp"

namespace irf::report {

/// Times per call of named operators on one GPU, as published (ms in the file, ns here).
struct PublishedTimes {
    std::string gpu;                           ///< the ceilings key the times belong to
    std::string source;                        ///< provenance line of the file
    std::map<std::string, double> ns_per_call; ///< operator (NVTX range) name -> mean time
};

/// Reads `gpu`'s times from a published-times file (tests/data/projection-public/kernelbench/
/// README.md: {"source": {...}, "gpus": {KEY: {"times_ms": {NAME: {"mean": ms}}}}}); a name's
/// ".py" suffix is dropped. Throws InputError naming the file and what is wrong.
[[nodiscard]] PublishedTimes load_published_times(const std::string& path, const std::string& gpu);

/// One operator: its kernels' time in its NVTX range on the recorded GPU, per call, projected.
struct OperatorProjection {
    std::string name;
    std::size_t kernels = 0;
    double recorded_ns = 0;  ///< per call, on the recorded GPU
    double predicted_ns = 0; ///< the projection's point, per call
    double low_ns = 0, high_ns = 0;
    double model_low_ns = 0, model_high_ns = 0; ///< the model's own interval, before calibration
    double measured_ns = 0;                     ///< published, per call
    double error = 0;                           ///< (predicted - measured) / measured
    bool inside = false;                        ///< low <= measured <= high
    double sm_clock_ns = 0, dram_ns = 0, by_bound_ns = 0; ///< the naive scalings' predictions
    std::string bound;         ///< source bound of the kernel with most time ("" = undecided)
    std::string confidence;    ///< that kernel's projection confidence ("" = not projected)
    bool launch_bound = false; ///< measured under the headline's floor
};

/// Error figures over a set of operators.
struct OperatorSummary {
    std::size_t count = 0;
    double mape = 0, weighted_mape = 0; ///< the model; weights are measured times
    double inside_share = 0, weighted_inside = 0;
    NaiveMape naive; ///< the naive scalings on the same operators
};

/// A whole check onto one target.
struct OperatorCheck {
    std::string target;
    std::vector<OperatorProjection> operators; ///< longest measured first
    std::vector<std::string> left_out;         ///< "name: reason"
    OperatorSummary headline;                  ///< operators at or over the floor
    OperatorSummary launch_bound;              ///< operators under it, reported apart
};

/// Settings of check_operators.
struct OperatorCheckSettings {
    std::string target;       ///< the projection to read (empty: each kernel's only one)
    double calls = 1;         ///< times each NVTX range was entered in the recorded run
    double floor_ns = 20'000; ///< operators measured under this are launch-bound
    NaiveFactors factors;
};

/// Sums each top-level NVTX range's kernels of `recorded` (analysed, with a projection onto the
/// published GPU) per call and compares it with `published`. A range without a published time,
/// or with a kernel lacking a time or that projection, is left out with its reason, as is a
/// published operator no range ran.
[[nodiscard]] OperatorCheck check_operators(const model::Profile& recorded,
                                            const PublishedTimes& published,
                                            const OperatorCheckSettings& settings);

/// The check as text (Markdown when `markdown`): the `top` longest operators, the summary lines
/// with the naive scalings and whether the model beats each.
[[nodiscard]] std::string operator_check_text(const OperatorCheck& check, std::size_t top,
                                              bool markdown);

/// The check as JSON (every operator, left-out reasons, both summaries).
[[nodiscard]] std::string operator_check_json(const OperatorCheck& check);

} // namespace irf::report
