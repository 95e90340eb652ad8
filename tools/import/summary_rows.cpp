// SPDX-License-Identifier: Apache-2.0
// Summary rows -> kernels: averages are per launch and the invocations are the launch count
// (docs/import.md, "Rules").
#include "tools/import/summary_rows.hpp"

#include <algorithm>

#include "tools/import/import_error.hpp"

namespace irf::import {

SummaryRows::SummaryRows(FileContext& context, Lookup lookup)
    : m_context(context), m_lookup(lookup) {}

void SummaryRows::offer(Kernel& k, const CsvRecord& row, const SummaryCells& cells,
                        const config::ForeignMetric& metric) {
    // nvprof prints averages of counts as whole numbers (tests/data/import/README.md: the
    // V100S export's Avg of 101 differing launches); an event's Total is exact, so the average
    // per launch is Total / Invocations where the table has one (docs/import.md, Rules).
    if (cells.total) {
        if (const auto v =
                metric_value(m_context, row, *cells.total, metric, cells.unit, cells.unit_index)) {
            k.average.offer(cells.metric, metric, *v / static_cast<double>(cells.invocations));
        }
    } else if (const auto v = metric_value(m_context, row, cells.average, metric, cells.unit,
                                           cells.unit_index)) {
        k.average.offer(cells.metric, metric, *v);
    }
    if (cells.min) {
        if (const auto v =
                metric_value(m_context, row, *cells.min, metric, cells.unit, cells.unit_index)) {
            k.min.offer(cells.metric, metric, *v);
        }
    }
    if (cells.max) {
        if (const auto v =
                metric_value(m_context, row, *cells.max, metric, cells.unit, cells.unit_index)) {
            k.max.offer(cells.metric, metric, *v);
        }
    }
}

void SummaryRows::add(const LaunchRead& identity, const CsvRecord& row, const SummaryCells& cells) {
    const auto [it, added] =
        m_index.emplace(kernel_key(identity.name, identity.launch), m_kernels.size());
    if (added) {
        m_kernels.push_back(Kernel{identity, cells.invocations, {}, {}, {}});
    }
    // One row per kernel and metric: a second one (the same kernel under two NVTX ranges or
    // processes) would silently replace the first, so it is refused.
    const auto [seen, first] = m_seen.emplace(std::pair{it->second, cells.metric}, row.line);
    if (!first) {
        throw ImportError(m_context.file.path, row.line, 0,
                          "a second row for kernel " + identity.name + " and " + cells.metric +
                              " (the first is line " + std::to_string(seen->second) +
                              "): irf reads one row per kernel and metric; export each process "
                              "or NVTX range on its own, or the details page (ncu --csv)");
    }
    Kernel& k = m_kernels[it->second];
    k.invocations = std::max(k.invocations, cells.invocations);
    const auto metrics = m_lookup(cells.metric);
    if (metrics.empty() && m_context.file.unmapped.size() < 1000) {
        m_context.file.unmapped.insert(cells.metric);
    }
    for (const config::ForeignMetric& metric : metrics) {
        offer(k, row, cells, metric);
    }
}

void SummaryRows::finish() {
    for (Kernel& k : m_kernels) {
        std::set<std::string> notes;
        model::Counters averages = k.average.resolve(notes);
        std::optional<model::TimeStats> time;
        if (const auto mean = averages.find("time_ns"); mean != averages.end()) {
            std::set<std::string> unused;
            const model::Counters mins = k.min.resolve(unused);
            const model::Counters maxs = k.max.resolve(unused);
            const double n = static_cast<double>(k.invocations);
            time = model::TimeStats{
                mean->second * n, mins.count("time_ns") ? mins.at("time_ns") : mean->second,
                mean->second, maxs.count("time_ns") ? maxs.at("time_ns") : mean->second};
            averages.erase(mean);
        }
        LaunchRead identity = k.identity;
        identity.notes.insert(notes.begin(), notes.end());
        m_context.table.add_summary(std::move(identity), k.invocations, averages, time);
    }
    m_kernels.clear();
    m_index.clear();
    m_seen.clear();
}

} // namespace irf::import
