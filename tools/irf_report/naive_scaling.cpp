// SPDX-License-Identifier: Apache-2.0
// Naive scalings beside every projection check (tools/irf_report/naive_scaling.hpp).
#include "tools/irf_report/naive_scaling.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "common/string_printf.hpp"

namespace irf::report {

NaiveFactors naive_factors(int source_sms, double source_clock_mhz, double source_dram_gbs,
                           int target_sms, double target_clock_mhz, double target_dram_gbs) {
    NaiveFactors f;
    const double source_rate = source_sms * source_clock_mhz;
    const double target_rate = target_sms * target_clock_mhz;
    if (source_rate > 0 && target_rate > 0) {
        f.sm_clock = source_rate / target_rate;
    }
    if (source_dram_gbs > 0 && target_dram_gbs > 0) {
        f.dram = source_dram_gbs / target_dram_gbs;
    }
    return f;
}

NaiveFactors naive_factors(const config::Ceilings& source, const config::Ceilings& target) {
    const auto dram = [](const config::Ceilings& c) { return c.hbm_gbs ? c.hbm_gbs->value : 0.0; };
    return naive_factors(source.gpu.sms, source.gpu.boost_clock_mhz, dram(source), target.gpu.sms,
                         target.gpu.boost_clock_mhz, dram(target));
}

double by_bound_factor(const std::string& bound, const NaiveFactors& factors) {
    return bound == "hbm" ? factors.dram : factors.sm_clock;
}

NaivePredictions naive_predictions(double source_ns, const std::string& bound,
                                   const NaiveFactors& factors) {
    return {source_ns * factors.sm_clock, source_ns * factors.dram,
            source_ns * by_bound_factor(bound, factors)};
}

namespace {

constexpr double s_tie = 0.0005;

double relative_error(double predicted, double measured) {
    return std::fabs(predicted - measured) / measured;
}

std::string figure(bool known, double mape) {
    return known ? common::string_printf("%.1f%%", 100 * mape) : std::string("n/a");
}

std::string verdict(bool known, double model, double naive) {
    return known ? beats(model, naive) : "cannot compare with";
}

} // namespace

void NaiveErrorSum::add(const NaivePredictions& predicted, double measured_ns) {
    ++m_count;
    m_sm_clock += relative_error(predicted.sm_clock_ns, measured_ns);
    m_dram += relative_error(predicted.dram_ns, measured_ns);
    m_by_bound += relative_error(predicted.by_bound_ns, measured_ns);
}

NaiveMape NaiveErrorSum::mape() const {
    NaiveMape m;
    m.sm_clock_known = m_factors.sm_clock > 0;
    m.dram_known = m_factors.dram > 0;
    if (m_count == 0) {
        return m;
    }
    const double n = static_cast<double>(m_count);
    m.sm_clock = m_sm_clock / n;
    m.dram = m_dram / n;
    m.by_bound = m_by_bound / n;
    return m;
}

const char* beats(double model_mape, double naive_mape) {
    // Equal to a twentieth of a percentage point is a tie: on H100 -> H200 the model and the
    // by-bound scaling are the same ratios and differ in the 17th digit only.
    if (std::fabs(model_mape - naive_mape) < s_tie) {
        return "ties with";
    }
    return model_mape < naive_mape ? "beats" : "LOSES TO";
}

std::string naive_comparison(double model_mape, const NaiveMape& n) {
    const bool both = n.sm_clock_known && n.dram_known;
    return "naive MAPE: SMs x clock " + figure(n.sm_clock_known, n.sm_clock) + ", DRAM bandwidth " +
           figure(n.dram_known, n.dram) + ", by bound " + figure(both, n.by_bound) +
           "; the model " + verdict(n.sm_clock_known, model_mape, n.sm_clock) + " SMs x clock, " +
           verdict(n.dram_known, model_mape, n.dram) + " DRAM, " +
           verdict(both, model_mape, n.by_bound) + " by bound";
}

void put_naive_json(nlohmann::json& object, const NaiveMape& n) {
    const auto put = [&object](const char* key, bool known, double value) {
        object[key] = known ? nlohmann::json(value) : nlohmann::json(nullptr);
    };
    put("mape_sm_clock", n.sm_clock_known, n.sm_clock);
    put("mape_dram", n.dram_known, n.dram);
    put("mape_by_bound", n.sm_clock_known && n.dram_known, n.by_bound);
}

} // namespace irf::report
