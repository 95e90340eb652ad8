// SPDX-License-Identifier: Apache-2.0
// Summary tables (ncu --print-summary, nvprof --metrics/--events): one row per kernel and
// metric with the launch count and the per-launch minimum, maximum and average.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/import/table_reader.hpp"

namespace irf::import {

/// Where a summary row keeps its numbers.
struct SummaryCells {
    std::string metric;                    ///< the metric or event name
    std::string unit;                      ///< its unit ("" = base)
    std::optional<std::size_t> unit_index; ///< column of the unit, when the row has one
    std::size_t average = 0;               ///< column index of the per-launch average
    std::optional<std::size_t> min, max;   ///< column indices of minimum and maximum
    std::optional<std::size_t> total;      ///< column of the total over the launches (events)
    std::uint64_t invocations = 0;         ///< launches summarised
};

/// Gathers the rows of one summary table, kernel by kernel, into the file's kernel table.
class SummaryRows {
public:
    /// A foreign-name lookup: config::ncu_metric or config::nvprof_metric.
    using Lookup = std::vector<config::ForeignMetric> (*)(std::string_view);
    /// Rows go into `context`'s kernel table; names are looked up with `lookup`.
    SummaryRows(FileContext& context, Lookup lookup);

    /// One row of kernel `identity`.
    void add(const LaunchRead& identity, const CsvRecord& row, const SummaryCells& cells);

    /// Resolves each kernel's counters (averages x invocations) into the kernel table.
    void finish();

private:
    struct Kernel {
        LaunchRead identity;
        std::uint64_t invocations = 0;
        LaunchCounters average, min, max;
    };
    void offer(Kernel& k, const CsvRecord& row, const SummaryCells& cells,
               const config::ForeignMetric& metric);
    FileContext& m_context;
    Lookup m_lookup;
    std::map<std::string, std::size_t> m_index;
    std::map<std::pair<std::size_t, std::string>, std::size_t> m_seen; ///< (kernel, metric) -> line
    std::vector<Kernel> m_kernels;
};

} // namespace irf::import
