// SPDX-License-Identifier: Apache-2.0
// Runs the whole model over a profile: every kernel gets its `analysis`, the profile its
// `ceilings` (docs/model.md).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/profile.hpp"
#include "model/summary/summary_projection.hpp"

namespace irf::model {

/// How analyze() runs; the defaults are libirf's at exit (one thread, every detail).
struct AnalyzeSettings {
    /// Threads analysing kernels at once, the calling one included; the result is the same on any
    /// number (the irf-report commands use up to 8).
    unsigned threads = 1;
    /// false: each projection keeps only its target, times, speedup, bounds, basis and confidence,
    /// what the text summary and the CSV show; its notes, resource times, waves and L2 fit (in the
    /// JSON only) are dropped to save memory (about 1.4 kB a projection).
    bool projection_details = true;
    /// true, with more than k_summary_target_columns targets: each kernel keeps ProjectionBriefs
    /// (Profile::brief_targets) instead of its projections, all the text summary and the CSV
    /// read (the summary shows per-kernel projections only for that many targets or fewer). At
    /// 100,000 kernels and 14 targets that is 0.8 GB less (docs/performance.md). Not for the
    /// JSON, the Markdown summary or `show`.
    bool fold_projections = false;
    /// false: each kernel's counters are freed once it is analysed, except a kernel run under an
    /// NVTX range (roll_up_regions reads them), for a caller that shows analysed values only (the
    /// CSV, compare, check-projection): the counters are most of a read profile's memory
    /// (docs/performance.md, "Tools' memory").
    bool keep_counters = true;
};

/// Fills each kernel's `analysis` (Instruction Roofline, walls, predication, FLOP roofline, mix,
/// kernel ceilings, projection onto each of `targets`) from its counters and the `source`
/// ceilings, and sets `profile.ceilings`. Missing counters leave the affected verdict absent with
/// a reason in `missing`; zero time or zero instructions never produce NaN or infinity.
void analyze(Profile& profile, const config::Ceilings& source,
             const std::vector<config::Ceilings>& targets, const AnalyzeSettings& settings = {});

/// analyze() a kernel at a time, for a reader that analyses each kernel as soon as it is read
/// (docs/performance.md, "Tools' memory"): the same analysis, the same profile.
class KernelAnalyzer {
public:
    /// The ceilings prepared for `source` and `targets` (settings.threads is not used).
    KernelAnalyzer(const config::Ceilings& source, const std::vector<config::Ceilings>& targets,
                   const AnalyzeSettings& settings = {});

    /// Fills `kernel.analysis` and frees its counters as analyze() does; several threads may
    /// call it at once.
    void analyze(KernelRecord& kernel) const;

    /// Sets what analyze() sets of the profile once every kernel is analysed: `ceilings`,
    /// `brief_targets` and the regions' roll-up.
    void finish(Profile& profile) const;

private:
    struct State;
    std::shared_ptr<const State> m_state;
};

/// The analysis of one kernel on `source`, projected onto each of `targets`.
[[nodiscard]] KernelAnalysis analyze_kernel(const KernelRecord& kernel,
                                            const config::Ceilings& source,
                                            const std::vector<config::Ceilings>& targets);

/// The top-level `ceilings_used` record of a ceilings entry: GTXN/s = GB/s / 32 for L1, L2 and
/// HBM, GB/s / 128 for shared (128-byte wavefronts); GFLOP/s per key, tensor as tensor_<type>.
[[nodiscard]] CeilingsUsed ceilings_used(const config::Ceilings& ceilings);

} // namespace irf::model
