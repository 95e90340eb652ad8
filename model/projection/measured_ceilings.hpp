// SPDX-License-Identifier: Apache-2.0
// Measured maxima over datasheet peaks, like with like across GPUs (docs/model.md, "Measured
// maxima": PROJ section 4.1 uses Perf^Max and BW^Max where benchmarks exist and, for a target
// without them, assumes the source's Peak/Max ratio; section 5.2 keeps write-only stream figures
// for write-only kernels).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "config/ceilings.hpp"

namespace irf::model {

/// The kind of a measurement: the first two words of its method, lower-cased (the benchmark and
/// its access pattern, e.g. "gpu-stream triad"); "" when the method is empty.
[[nodiscard]] std::string measurement_kind(const config::Quantity& q);

/// Whether a measurement's kind is a write-only stream ("write-only" or "init"), which PROJ
/// section 5.2 applies to write-only kernels only.
[[nodiscard]] bool is_write_only_kind(const std::string& kind);

/// A copy of `ceilings` for the source GPU alone: every spec or derived value that has a measured
/// or published alternative takes the largest one, write-only kinds only when `write_only`.
[[nodiscard]] config::Ceilings prefer_measured(const config::Ceilings& ceilings,
                                               bool write_only = false);

/// The ceilings of a source and a target after the like-for-like choice, with one line per
/// ceiling that changed (`notes`).
struct CeilingPair {
    config::Ceilings source;
    config::Ceilings target;
    std::vector<std::string> notes; ///< "hbm_gbs: gpu-stream triad on both", ...
    /// Per target ceiling key, the lowest and highest of its figures (the file's value, the
    /// measurements a kernel may use, the value chosen): the spread of its provenance.
    std::map<std::string, std::pair<double, double>> target_spread;
};

/// PROJ 4.1 per ceiling: both take their measurement of a kind they share (the kind closest to
/// both peaks); else the source takes its largest measurement and the target its peak x the
/// source's measured/peak ratio; else both keep their values. A value the file already gives as a
/// measurement, on either side, stays as it is.
[[nodiscard]] CeilingPair like_for_like(const config::Ceilings& source,
                                        const config::Ceilings& target, bool write_only = false);

/// The provenance of every ceiling in effect, by key: warp_gips, l1_gbs, shared_gbs, l2_gbs,
/// hbm_gbs, gflops.<key>, tensor.<type> -> "measured", "published", "spec" or "derived".
[[nodiscard]] std::map<std::string, std::string>
ceiling_provenance(const config::Ceilings& ceilings);

} // namespace irf::model
