// SPDX-License-Identifier: Apache-2.0
// Nsight Compute CSV tables: the details page in long form (one row per launch and metric), the
// raw page (one row per launch, a units row under the header) and --print-summary (docs/import.md).
#include <map>
#include <set>

#include "common/text_safety.hpp"
#include "tools/import/elapsed_cycles.hpp"
#include "tools/import/import_error.hpp"
#include "tools/import/summary_rows.hpp"
#include "tools/import/table_reader.hpp"
#include "tools/import/values.hpp"

namespace irf::import {
namespace {

// Launch-configuration values ncu prints beside the metrics (details page and raw page).
const std::set<std::string, std::less<>> s_register_names = {"Registers Per Thread",
                                                             "launch__registers_per_thread"};
const std::set<std::string, std::less<>> s_shared_names = {
    "Static Shared Memory Per Block", "Dynamic Shared Memory Per Block",
    "launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic"};

std::optional<std::uint32_t> whole(const std::string& text, double factor) {
    const CellValue v = parse_cell(text);
    if (v.status != CellValue::Status::number || v.value < 0 || v.value * factor > 4e9) {
        return std::nullopt;
    }
    return static_cast<std::uint32_t>(v.value * factor + 0.5);
}

// ncu's "<unnamed>::" scope (an anonymous namespace) as a public Windows export of ncu 2026.2
// spells it: "unnamed>::k(...)", its '<' lost, which no name parser can balance
// (tests/data/import/README.md). Each such scope is given its '<' back; true when one was.
bool repair_unnamed(std::string& name) {
    static const std::string lost = "unnamed>::";
    bool repaired = false;
    for (std::size_t at = name.find(lost); at != std::string::npos;
         at = name.find(lost, at + lost.size() + 1)) {
        const char before = at == 0 ? ' ' : name[at - 1];
        if (before == ' ' || before == '(' || before == ',') {
            name.insert(at, 1, '<');
            repaired = true;
        }
    }
    return repaired;
}

// The Kernel Name cell of a row, an anonymous namespace spelt as ncu does elsewhere.
std::string kernel_name(const Columns& columns, const CsvRecord& row, bool* repaired = nullptr) {
    std::string name = columns.cell(row, "Kernel Name");
    const bool was = repair_unnamed(name);
    if (repaired) {
        *repaired = was;
    }
    return name;
}

// The kernel's name and launch from the identity columns of a row.
LaunchRead identity(const FileContext& context, const Columns& columns, const CsvRecord& row) {
    LaunchRead launch;
    bool repaired = false;
    launch.name = kernel_name(columns, row, &repaired);
    if (repaired) {
        launch.notes.insert("import: the file's kernel name reads 'unnamed>::', read as ncu's "
                            "'<unnamed>::' (an anonymous namespace)");
    }
    launch.line = row.line;
    if (launch.name.empty()) {
        throw ImportError(context.file.path, row.line, 0, "empty Kernel Name");
    }
    const std::string grid = columns.cell(row, "Grid Size");
    const std::string block = columns.cell(row, "Block Size");
    if (!grid.empty() || !block.empty()) {
        const auto g = parse_dim3(grid);
        const auto b = parse_dim3(block);
        if (!g || !b) {
            // The other size may be a column the header lacks (found by the fuzzer): column 0.
            const char* column = g ? "Block Size" : "Grid Size";
            const auto index = columns.find(column);
            const std::string& bad = g ? block : grid;
            throw ImportError(context.file.path, row.line, index ? row.columns[*index] : 0,
                              std::string(column) + " '" + bad.substr(0, 40) +
                                  "' is not a launch size like (256, 1, 1)");
        }
        launch.launch = model::LaunchConfig{*g, *b, 0, 0};
        launch.launch_from_columns = true;
    }
    return launch;
}

// Launch Statistics' "Block Size" and "Grid Size" rows: threads per block and blocks, as totals.
// Older ncu versions (2022, seen in public exports) have no size columns, so these rows are the
// launch; with the columns (3-D) present the rows add nothing.
bool launch_size_row(LaunchRead& launch, const std::string& name, const std::string& value) {
    const bool block = name == "Block Size";
    if (!block && name != "Grid Size") {
        return false;
    }
    const auto n = whole(value, 1);
    if (launch.launch_from_columns || !n || *n == 0) {
        return true;
    }
    if (!launch.launch) {
        launch.launch = model::LaunchConfig{{1, 1, 1}, {1, 1, 1}, 0, 0};
    }
    (block ? launch.launch->block : launch.launch->grid) = {*n, 1, 1};
    return true;
}

// Values of the launch rather than metrics: its sizes, registers and shared memory, and the
// elapsed cycles; true when the row was one of them.
bool launch_value(LaunchRead& launch, const std::string& name, const std::string& unit,
                  const std::string& value) {
    if (launch_size_row(launch, name, value) || elapsed_cycles_row(launch, name, unit, value)) {
        return true;
    }
    if (!launch.launch) {
        return s_register_names.count(name) || s_shared_names.count(name);
    }
    if (s_register_names.count(name)) {
        launch.launch->regs = whole(value, 1).value_or(launch.launch->regs);
        return true;
    }
    if (s_shared_names.count(name)) {
        const double factor = unit_factor(config::ForeignKind::bytes, unit).value_or(1);
        launch.launch->smem_bytes += whole(value, factor).value_or(0);
        return true;
    }
    return false;
}

// The device attributes that name the GPU (docs/import.md, "GPU"); true when the row was one.
bool device_attribute(FileContext& context, const std::string& name, const std::string& value) {
    if (name == "device__attribute_display_name") {
        context.file.display_name = value;
        return true;
    }
    // Launch Statistics' "# SMs" (launch__sm_count) is the SM count of the launch's device; a
    // details page without device attributes has no other (a public ncu 2025 export, cc 10.0).
    if (name == "device__attribute_multiprocessor_count" || name == "# SMs" ||
        name == "launch__sm_count") {
        context.file.sms = whole(value, 1).value_or(0);
        return true;
    }
    return false;
}

void offer_values(FileContext& context, LaunchCounters& counters, const CsvRecord& row,
                  std::size_t index, const std::string& name, const std::string& unit,
                  const std::vector<config::ForeignMetric>& metrics,
                  std::optional<std::size_t> unit_index = {}) {
    if (metrics.empty() && context.file.unmapped.size() < 1000) {
        context.file.unmapped.insert(name);
    }
    for (const config::ForeignMetric& metric : metrics) {
        if (const auto value = metric_value(context, row, index, metric, unit, unit_index)) {
            counters.offer(name, metric, *value);
        }
    }
}

void offer_metric(FileContext& context, LaunchCounters& counters, const CsvRecord& row,
                  std::size_t index, const std::string& name, const std::string& unit,
                  std::optional<std::size_t> unit_index) {
    offer_values(context, counters, row, index, name, unit, config::ncu_metric(name), unit_index);
}

// Moves the resolved duration out of the counters (the kernel table times launches itself).
void close_launch(FileContext& context, LaunchRead& launch, const LaunchCounters& counters) {
    launch.counters = counters.resolve(launch.notes);
    if (const auto t = launch.counters.find("time_ns"); t != launch.counters.end()) {
        launch.duration_ns = t->second;
        launch.counters.erase(t);
    } else if (const auto time = time_from_cycles(launch)) {
        // NERSC's hierarchical-roofline scripts collect no duration: time is the elapsed cycles
        // over their rate (docs/import.md, "Time").
        launch.duration_ns = time->first;
        launch.notes.insert("import: time from " + time->second + " (no gpu__time_duration)");
    }
    context.table.add_launch(std::move(launch));
}

class LongReader : public TableReader {
public:
    LongReader(FileContext& context, const CsvRecord& header)
        : m_context(context), m_columns(header) {}

    void row(const CsvRecord& r) override {
        const std::string id = m_columns.cell(r, "ID") + "|" + m_columns.cell(r, "Process ID");
        if (!m_open || id != m_id) {
            start(r, id);
        } else {
            check_same_kernel(r);
        }
        const std::string name = m_columns.cell(r, "Metric Name");
        const std::string unit = m_columns.cell(r, "Metric Unit");
        const std::size_t value_index = *m_columns.find("Metric Value");
        check_repeated(r, name, value_index);
        if (launch_value(m_launch, name, unit, r.fields[value_index]) ||
            device_attribute(m_context, name, r.fields[value_index])) {
            return;
        }
        offer_metric(m_context, m_counters, r, value_index, name, unit,
                     m_columns.find("Metric Unit"));
    }

    void finish() override {
        if (m_open) {
            close_launch(m_context, m_launch, m_counters);
            m_open = false;
        }
    }

private:
    void start(const CsvRecord& r, const std::string& id) {
        finish();
        if (!m_done.insert(id).second) {
            throw ImportError(m_context.file.path, r.line, 0,
                              "launch ID " + m_columns.cell(r, "ID") +
                                  " appears again after other launches (rows of one launch "
                                  "must be together, as ncu writes them)");
        }
        note_gpu(m_context, m_columns.cell(r, "Device"), m_columns.cell(r, "CC"), r.line);
        m_launch = identity(m_context, m_columns, r);
        m_counters = LaunchCounters{};
        m_values.clear();
        m_id = id;
        m_open = true;
    }

    // The rows of one launch ID name one kernel: another name is another launch, which would
    // be merged into the first (issue 52 item 6).
    void check_same_kernel(const CsvRecord& r) const {
        const std::string name = kernel_name(m_columns, r);
        if (name != m_launch.name) {
            const auto index = m_columns.find("Kernel Name");
            throw ImportError(m_context.file.path, r.line, index ? r.columns[*index] : 0,
                              "launch ID " + m_columns.cell(r, "ID") + " names kernel '" +
                                  common::utf8_prefix(name, 60) + "' here and '" +
                                  common::utf8_prefix(m_launch.name, 60) + "' at line " +
                                  std::to_string(m_launch.line) +
                                  ": the rows of one launch name one kernel");
        }
    }

    // ncu lists some metrics in two sections of the details page, with one value; two values of
    // one metric in one launch are two measurements irf cannot choose between (issue 52 item 6).
    void check_repeated(const CsvRecord& r, const std::string& name, std::size_t index) {
        const std::string& value = r.fields[index];
        const auto [it, first] = m_values.emplace(name, std::pair{value, r.line});
        if (!first && it->second.first != value) {
            throw ImportError(m_context.file.path, r.line, r.columns[index],
                              common::utf8_prefix(name, 80) + " of launch ID " +
                                  m_columns.cell(r, "ID") + " is '" + value.substr(0, 40) +
                                  "' here and '" + it->second.first.substr(0, 40) + "' at line " +
                                  std::to_string(it->second.second) + ": one metric, two values");
        }
    }

    FileContext& m_context;
    Columns m_columns;
    bool m_open = false;
    std::string m_id;
    std::set<std::string> m_done;
    LaunchRead m_launch;
    LaunchCounters m_counters;
    std::map<std::string, std::pair<std::string, std::size_t>> m_values; ///< value, line
};

class RawReader : public TableReader {
public:
    // Each column's names are looked up once: a raw page has hundreds of columns and tens of
    // thousands of rows (docs/performance.md, import benchmark).
    RawReader(FileContext& context, const CsvRecord& header)
        : m_context(context), m_columns(header), m_names(header.fields) {
        for (const std::string& name : m_names) {
            m_metrics.push_back(config::ncu_metric(name));
        }
    }

    void row(const CsvRecord& r) override {
        if (!m_units_read) {
            m_units_read = true;
            if (m_columns.cell(r, "Kernel Name").empty()) {
                m_units = r.fields; // the units row under the header
                return;
            }
            m_units.assign(r.fields.size(), std::string());
        }
        note_gpu(m_context, m_columns.cell(r, "Device"), m_columns.cell(r, "CC"), r.line);
        LaunchRead launch = identity(m_context, m_columns, r);
        LaunchCounters counters;
        for (std::size_t i = 0; i < r.fields.size(); ++i) {
            if (s_identity.count(m_names[i]) ||
                launch_value(launch, m_names[i], m_units[i], r.fields[i])) {
                continue;
            }
            if (device_attribute(m_context, m_names[i], r.fields[i])) {
                continue;
            }
            offer_values(m_context, counters, r, i, m_names[i], m_units[i], m_metrics[i]);
        }
        close_launch(m_context, launch, counters);
    }

private:
    inline static const std::set<std::string, std::less<>> s_identity = {
        "ID",     "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
        "Stream", "Block Size", "Grid Size",    "Device",    "CC",          "Kernel Time"};
    FileContext& m_context;
    Columns m_columns;
    std::vector<std::string> m_names;
    std::vector<std::vector<config::ForeignMetric>> m_metrics;
    std::vector<std::string> m_units;
    bool m_units_read = false;
};

class SummaryReader : public TableReader {
public:
    SummaryReader(FileContext& context, const CsvRecord& header)
        : m_context(context), m_columns(header), m_rows(context, &config::ncu_metric) {}

    void row(const CsvRecord& r) override {
        note_gpu(m_context, m_columns.cell(r, "Device"), m_columns.cell(r, "CC"), r.line);
        const LaunchRead launch = identity(m_context, m_columns, r);
        SummaryCells cells;
        cells.metric = m_columns.cell(r, "Metric Name");
        cells.unit = m_columns.cell(r, "Metric Unit");
        cells.unit_index = m_columns.find("Metric Unit");
        cells.average = *m_columns.find("Average");
        cells.min = m_columns.find("Minimum");
        cells.max = m_columns.find("Maximum");
        const std::size_t inv = *m_columns.find("Invocations");
        const auto n = whole(r.fields[inv], 1);
        if (!n || *n == 0) {
            throw ImportError(m_context.file.path, r.line, r.columns[inv],
                              "Invocations must be a whole number of 1 or more");
        }
        cells.invocations = *n;
        m_rows.add(launch, r, cells);
    }

    void finish() override { m_rows.finish(); }

private:
    FileContext& m_context;
    Columns m_columns;
    SummaryRows m_rows;
};

} // namespace

std::unique_ptr<TableReader> ncu_reader_for(const CsvRecord& header, FileContext& context) {
    const Columns columns(header);
    if (!columns.has_all({"Kernel Name"})) {
        if (columns.has_all({"Metric Name", "Average", "Invocations"})) {
            // ncu's summary modes that group launches other than by kernel: an aggregate of
            // different kernels has no launch shape nor one point (docs/import.md).
            throw ImportError(context.file.path, header.line, 0,
                              "an ncu --print-summary table without a Kernel Name column: irf "
                              "needs one row per kernel; export with ncu --csv --print-summary "
                              "per-kernel, or ncu --csv --page raw");
        }
        return nullptr;
    }
    context.file.tool = "ncu";
    if (columns.has_all({"Metric Name", "Average", "Invocations"})) {
        context.file.format = "ncu-csv-summary";
        return std::make_unique<SummaryReader>(context, header);
    }
    if (columns.has_all({"Metric Name", "Metric Value"})) {
        context.file.format = "ncu-csv-long";
        return std::make_unique<LongReader>(context, header);
    }
    if (columns.has_all({"ID"}) && !columns.find("Metric Name")) {
        context.file.format = "ncu-csv-raw";
        return std::make_unique<RawReader>(context, header);
    }
    return nullptr;
}

} // namespace irf::import
