// SPDX-License-Identifier: Apache-2.0
// The metric set a sample collects (intercept/cupti/sample_sets.hpp).
#include "intercept/cupti/sample_sets.hpp"

#include <string>
#include <utility>

namespace irf::intercept::cupti {
namespace {

/// The core counters a tensor-types sample keeps beside the tensor group: the tensor
/// instructions the collector scales its ops by (intercept/collector_record.cpp), the launch's
/// own duration (counted like any sample's) and the CTAs the sample check compares with the
/// grid (sample_check.hpp), so a range holding another kernel is still discarded.
bool kept_in_tensor_sample(const std::string& canonical) {
    return canonical == "inst_tensor" || canonical == "time_ns" || canonical == "ctas_launched";
}

} // namespace

SampleSet sample_set_of(LaunchDecision decision) noexcept {
    return decision == LaunchDecision::profile_tensor_types ? SampleSet::tensor_types
           : decision == LaunchDecision::profile_launches   ? SampleSet::launches
                                                            : SampleSet::standard;
}

SampleSet held_set(SampleSet set) noexcept {
    return set == SampleSet::launches ? SampleSet::standard : set;
}

// The second sample leaves the rest of the default set out: the kernel's first sample holds
// those counters already, and with them the sample would replay its passes again as well
// (docs/cupti-notes.md gives the counts per chip).
std::vector<config::MetricBinding> sample_bindings(config::ChipFamily family,
                                                   const CuptiOptions& options, SampleSet set) {
    if (held_set(set) == SampleSet::standard) {
        return config::metric_bindings(family, options.collect_pipe_mix,
                                       options.collect_tensor_types);
    }
    std::vector<config::MetricBinding> bindings;
    for (config::MetricBinding& core : config::group_bindings(family, config::MetricGroup::core)) {
        if (kept_in_tensor_sample(core.canonical)) {
            bindings.push_back(std::move(core));
        }
    }
    for (config::MetricBinding& tensor :
         config::group_bindings(family, config::MetricGroup::tensor_types)) {
        bindings.push_back(std::move(tensor));
    }
    return bindings;
}

} // namespace irf::intercept::cupti
