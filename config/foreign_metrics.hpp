// SPDX-License-Identifier: Apache-2.0
// Nsight Compute and nvprof metric names -> irf's canonical counters (docs/import.md). The ncu
// names are those of the metric sets (config/metric_sets), plus the variants ncu users collect
// instead; nvprof names are the IRM paper's Table 1 workflow (docs/model.md: IRM 3.2).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irf::config {

/// What a foreign value measures, so the reader converts its unit (docs/import.md); `percent`
/// takes "%" as its unit or at the end of the value (nvprof writes "87.5%").
enum class ForeignKind { count, bytes, time, frequency, percent };

/// Import-only counters: the average bytes the threads used per 32-byte sector of global loads
/// (stores), from ncu's global load efficiency or nvprof's gld_efficiency. The reader turns
/// them into bytes_global_ld/st with the sectors of the same launch; they never reach a profile.
inline constexpr const char* k_bytes_per_sector_ld = "import_bytes_per_sector_global_ld";
inline constexpr const char* k_bytes_per_sector_st = "import_bytes_per_sector_global_st";

/// One foreign metric name and how it becomes a canonical counter.
struct ForeignMetric {
    std::string canonical;
    /// Preference among names of one canonical counter: the lowest rank present in a launch
    /// wins; names of one rank are summed (a binding of several metrics, e.g. tensor paths).
    int rank = 0;
    ForeignKind kind = ForeignKind::count;
    /// Set to 0 when this name is used: a total whose split the file does not give is counted
    /// in `canonical` (e.g. dram__bytes.sum as reads), its partners made explicit as 0.
    std::vector<std::string> zero_partners;
    std::string note;   ///< why a fallback differs from libirf's counter ("" for exact matches)
    double divisor = 1; ///< 32 where bytes stand for 32-byte sectors
};

/// The canonical counters an Nsight Compute metric (or details-page value such as "Duration")
/// gives (usually one; empty when irf has no use for it).
[[nodiscard]] std::vector<ForeignMetric> ncu_metric(std::string_view name);

/// The canonical counters an nvprof metric or event gives (empty: none).
[[nodiscard]] std::vector<ForeignMetric> nvprof_metric(std::string_view name);

/// The chip ("GH100", "GA100", ...) of a compute capability ("9.0"), or "" when unknown. The
/// chip names a family (config/metric_sets); cc 8.6 and 8.7 give "GA10x" boards their family.
[[nodiscard]] std::string chip_of_cc(std::string_view cc);

} // namespace irf::config
