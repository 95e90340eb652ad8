// SPDX-License-Identifier: Apache-2.0
// The profile a collector would write at exit, for the collector tests.
#pragma once

#include "intercept/collector.hpp"

namespace irf::intercept::test {

/// True for a launch chosen for a standard-set sample, by kernel replay or by launches
/// (IRF_REPLAY): a test standing in for the backend delivers either one's counters at once, as a
/// backend may (intercept/backend.hpp, profile_launches).
inline bool sampled(LaunchDecision d) {
    return d == LaunchDecision::profile || d == LaunchDecision::profile_launches;
}

/// What `c` holds now, filled into a fresh profile as libirf's exit does.
inline model::Profile profile_of(Collector& c) {
    model::Profile p;
    c.fill_profile(p);
    return p;
}

} // namespace irf::intercept::test
