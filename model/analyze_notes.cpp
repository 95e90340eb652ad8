// SPDX-License-Identifier: Apache-2.0
// The notes analyze() adds to a kernel's analysis (docs/model.md).
#include "model/analyze_notes.hpp"

#include <cstdio>
#include <cstdlib>

#include "model/projection/waves.hpp"
#include "model/roofline/instruction_roofline.hpp"

namespace irf::model {

// docs/model.md, Known limits: TMA copies reach L2 without LSU sectors in L1 (LDGSTS, atomic and
// reduction sectors are counted where collected), so L1 intensity is overstated for such
// kernels. Say so when L2 traffic clearly exceeds L1 sectors, naming only what the chip has:
// TMA exists from cc 9.0; before it (a real A100 export showed L2 at 4.7x L1 in a plain SGEMM)
// the usual causes are LDGSTS or texture traffic the file lacks and GA100's far-partition
// requests, which lts__t_* counts twice.
void note_lsu_bypass(const Counters& c, const std::string& cc, std::vector<std::string>& notes) {
    const auto l1 = l1_sectors(c);
    const auto l2 = l2_transactions(c);
    if (l1 && l2 && *l2 > 1.25 * *l1) {
        const bool has_tma = !cc.empty() && std::atof(cc.c_str()) >= 9.0;
        const char* what = has_tma ? "copies that bypass the LSU counters (TMA) are"
                                   : "traffic without LSU sectors (LDGSTS or texture not "
                                     "collected; far-partition L2 requests counted twice) is";
        char buf[240];
        std::snprintf(buf, sizeof buf,
                      "irm.ii.l1: L2 sectors (%.3g) exceed L1 sectors (%.3g): %s not in L1 "
                      "intensity, which is overstated",
                      *l2, *l1, what);
        notes.push_back(buf);
    }
}

// Measured work cannot beat its own roofline: above 100% the ceilings are not this GPU's (or
// are too low), and every verdict drawn from them is suspect (docs/model.md).
void note_above_roofline(const KernelAnalysis& a, std::vector<std::string>& notes) {
    if (a.irm && a.irm->above_roofline()) {
        char buf[220];
        std::snprintf(buf, sizeof buf,
                      "irm.roofline_pct: %.1f%% of the roofline, above its ceiling: the ceilings "
                      "are not this GPU's or are too low (check --ceilings / IRF_CEILINGS)",
                      a.irm->roofline_pct);
        notes.push_back(buf);
    }
}

// Fewer blocks than SMs leave SMs idle for the whole kernel, whatever its roofline says: the
// launch-statistics rule of Nsight Compute, from the launch alone (docs/model.md, Waves).
void note_underfilled_grid(const KernelRecord& k, const config::Ceilings& source,
                           std::vector<std::string>& notes) {
    const std::uint64_t blocks = grid_blocks(k.launch.grid);
    const int sms = source.gpu.sms;
    if (k.launches == 0 || sms <= 0 || blocks == 0 || blocks >= static_cast<std::uint64_t>(sms)) {
        return;
    }
    char buf[220];
    std::snprintf(buf, sizeof buf,
                  "launch: under-filled grid: %llu block%s on %d SMs, so %llu SMs (%.0f%%) idle "
                  "for the whole kernel; more blocks (or split-K) would use them",
                  static_cast<unsigned long long>(blocks), blocks == 1 ? "" : "s", sms,
                  static_cast<unsigned long long>(sms - blocks),
                  100.0 * static_cast<double>(static_cast<std::uint64_t>(sms) - blocks) / sms);
    notes.push_back(buf);
}

} // namespace irf::model
