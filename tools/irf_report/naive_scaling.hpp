// SPDX-License-Identifier: Apache-2.0
// The naive scalings every projection check reports beside the model (issue 54 item 4;
// docs/validation/projection.md, "Naive baselines"): a kernel's time on the target is its time on
// the source x one ratio of the two GPUs' figures.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "config/ceilings.hpp"

namespace irf::report {

/// The naive scalings a projection must beat: target time = source time x factor.
struct NaiveFactors {
    double sm_clock = 0; ///< (SMs x boost clock) of the source over the target's
    double dram = 0;     ///< DRAM bandwidth of the source over the target's
};

/// The factors from both GPUs' figures (0 where a figure is unknown on either side).
[[nodiscard]] NaiveFactors naive_factors(int source_sms, double source_clock_mhz,
                                         double source_dram_gbs, int target_sms,
                                         double target_clock_mhz, double target_dram_gbs);

/// naive_factors of two ceilings entries: SMs, boost clock and hbm_gbs (the files' values).
[[nodiscard]] NaiveFactors naive_factors(const config::Ceilings& source,
                                         const config::Ceilings& target);

/// The by-bound factor: DRAM for a kernel bound by hbm on the source, SMs x clock for every
/// other bound (issue, FLOPs, L1, L2, or undecided "").
[[nodiscard]] double by_bound_factor(const std::string& bound, const NaiveFactors& factors);

/// What each naive scaling predicts for one kernel or operator.
struct NaivePredictions {
    double sm_clock_ns = 0, dram_ns = 0, by_bound_ns = 0;
};

/// The three predictions for `source_ns` on the source with `bound` there.
[[nodiscard]] NaivePredictions naive_predictions(double source_ns, const std::string& bound,
                                                 const NaiveFactors& factors);

/// The naive scalings' MAPE over a set (fractions, as the model's); a scaling whose factor is
/// unknown is not available and is never shown as a figure.
struct NaiveMape {
    double sm_clock = 0, dram = 0, by_bound = 0;
    bool sm_clock_known = false, dram_known = false; ///< by bound needs both
};

/// Sums the naive errors of a set: add() each item, then mape().
class NaiveErrorSum {
public:
    /// `factors` says which scalings are known.
    explicit NaiveErrorSum(const NaiveFactors& factors) : m_factors(factors) {}
    /// Adds one item's |predicted - measured| / measured for each scaling.
    void add(const NaivePredictions& predicted, double measured_ns);
    /// The mean errors over the items added (all 0 when none).
    [[nodiscard]] NaiveMape mape() const;

private:
    NaiveFactors m_factors;
    double m_sm_clock = 0, m_dram = 0, m_by_bound = 0;
    std::size_t m_count = 0;
};

/// "ties with" when the two MAPEs are within 0.05 percentage points, else "beats" when the
/// model's is below the naive one and "LOSES TO" when not.
[[nodiscard]] const char* beats(double model_mape, double naive_mape);

/// "naive MAPE: SMs x clock 60.0%, DRAM bandwidth 80.0%, by bound 75.0%; the model beats SMs x
/// clock, beats DRAM, beats by bound" ("n/a" and "cannot compare" for an unknown scaling).
[[nodiscard]] std::string naive_comparison(double model_mape, const NaiveMape& naive);

/// Puts mape_sm_clock, mape_dram and mape_by_bound into `object` (null where unknown).
void put_naive_json(nlohmann::json& object, const NaiveMape& naive);

} // namespace irf::report
