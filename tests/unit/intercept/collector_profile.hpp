// SPDX-License-Identifier: Apache-2.0
// The profile a collector would write at exit, for the collector tests.
#pragma once

#include "intercept/collector.hpp"

namespace irf::intercept::test {

/// What `c` holds now, filled into a fresh profile as libirf's exit does.
inline model::Profile profile_of(Collector& c) {
    model::Profile p;
    c.fill_profile(p);
    return p;
}

} // namespace irf::intercept::test
