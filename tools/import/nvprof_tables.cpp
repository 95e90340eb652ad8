// SPDX-License-Identifier: Apache-2.0
// nvprof CSV tables: --metrics and --events summaries, --print-gpu-summary and
// --print-gpu-trace timing, each with the IRM paper's V100 workflow in mind (docs/import.md).
#include "tools/import/import_error.hpp"
#include "tools/import/summary_rows.hpp"
#include "tools/import/table_reader.hpp"
#include "tools/import/values.hpp"

namespace irf::import {
namespace {

// nvprof names a device "Tesla V100-SXM2-16GB (0)": the number is the device index.
std::string device_name(const std::string& cell) {
    const std::size_t open = cell.rfind(" (");
    if (open != std::string::npos && !cell.empty() && cell.back() == ')') {
        return cell.substr(0, open);
    }
    return cell;
}

std::uint64_t invocations(const FileContext& context, const CsvRecord& r, std::size_t index) {
    const CellValue v = parse_cell(r.fields[index]);
    if (v.status != CellValue::Status::number || v.value < 1 || v.value > 1e15 ||
        v.value != static_cast<double>(static_cast<std::uint64_t>(v.value))) {
        throw ImportError(context.file.path, r.line, r.columns[index],
                          "Invocations must be a whole number of 1 or more");
    }
    return static_cast<std::uint64_t>(v.value);
}

// --metrics ("Metric Name", Min, Max, Avg) and --events ("Event Name", Min, Max, Avg, Total).
class NvprofSummaryReader : public TableReader {
public:
    NvprofSummaryReader(FileContext& context, const CsvRecord& header, std::string name_column)
        : m_context(context), m_columns(header), m_name_column(std::move(name_column)),
          m_rows(context, &config::nvprof_metric) {}

    void row(const CsvRecord& r) override {
        note_gpu(m_context, device_name(m_columns.cell(r, "Device")), "", r.line);
        LaunchRead launch;
        launch.name = m_columns.cell(r, "Kernel");
        launch.line = r.line;
        if (launch.name.empty()) {
            throw ImportError(m_context.file.path, r.line, 0, "empty Kernel name");
        }
        SummaryCells cells;
        cells.metric = m_columns.cell(r, m_name_column);
        cells.average = *m_columns.find("Avg");
        cells.min = m_columns.find("Min");
        cells.max = m_columns.find("Max");
        cells.total = m_columns.find("Total");
        cells.invocations = invocations(m_context, r, *m_columns.find("Invocations"));
        m_rows.add(launch, r, cells);
    }

    void finish() override { m_rows.finish(); }

private:
    FileContext& m_context;
    Columns m_columns;
    std::string m_name_column;
    SummaryRows m_rows;
};

// A time cell of a timing table, in ns, with the unit the units row gives its column.
std::optional<double> time_cell(const FileContext& context, const CsvRecord& r, std::size_t index,
                                const std::string& unit) {
    static const config::ForeignMetric time = [] {
        config::ForeignMetric m;
        m.canonical = "time_ns";
        m.kind = config::ForeignKind::time;
        return m;
    }();
    return metric_value(context, r, index, time, unit);
}

// Shared by --print-gpu-summary and --print-gpu-trace: a units row first, then data rows.
class TimingReader : public TableReader {
public:
    TimingReader(FileContext& context, const CsvRecord& header, bool trace)
        : m_context(context), m_columns(header), m_trace(trace) {}

    void row(const CsvRecord& r) override {
        if (!m_units_read) {
            m_units_read = true;
            m_units = r.fields;
            if (!m_columns.cell(r, "Name").empty()) {
                throw ImportError(m_context.file.path, r.line, 0,
                                  "no units row under the header (nvprof --csv writes one)");
            }
            return;
        }
        const std::string name = m_columns.cell(r, "Name");
        // Memory copies and sets ("[CUDA memcpy HtoD]") and API calls are not kernels.
        if (name.empty() || name.front() == '[' ||
            (!m_trace && m_columns.cell(r, "Type") != "GPU activities")) {
            return;
        }
        if (m_trace) {
            trace_row(r, name);
        } else {
            summary_row(r, name);
        }
    }

private:
    std::string unit_of(const std::string& column) const {
        const auto index = m_columns.find(column);
        return index && *index < m_units.size() ? m_units[*index] : std::string();
    }

    double required_time(const CsvRecord& r, const std::string& column) const {
        const std::size_t index = *m_columns.find(column);
        const auto v = time_cell(m_context, r, index, unit_of(column));
        if (!v) {
            throw ImportError(m_context.file.path, r.line, r.columns[index],
                              "no " + column + " for kernel " + m_columns.cell(r, "Name"));
        }
        return *v;
    }

    void summary_row(const CsvRecord& r, const std::string& name) {
        LaunchRead launch;
        launch.name = name;
        launch.line = r.line;
        const std::uint64_t calls = invocations(m_context, r, *m_columns.find("Calls"));
        const model::TimeStats time{required_time(r, "Time"), required_time(r, "Min"),
                                    required_time(r, "Avg"), required_time(r, "Max")};
        m_context.table.add_summary(std::move(launch), calls, {}, time);
    }

    std::uint32_t size_cell(const CsvRecord& r, const std::string& column) const {
        const CellValue v = parse_cell(m_columns.cell(r, column));
        const double factor = unit_factor(config::ForeignKind::bytes, unit_of(column)).value_or(1);
        return v.status == CellValue::Status::number && v.value >= 0 && v.value * factor < 4e9
                   ? static_cast<std::uint32_t>(v.value * factor + 0.5)
                   : 0;
    }

    void trace_row(const CsvRecord& r, const std::string& name) {
        LaunchRead launch;
        launch.name = name;
        launch.line = r.line;
        note_gpu(m_context, device_name(m_columns.cell(r, "Device")), "", r.line);
        const auto grid =
            parse_dim3(m_columns.cell(r, "Grid X") + "," + m_columns.cell(r, "Grid Y") + "," +
                       m_columns.cell(r, "Grid Z"));
        const auto block =
            parse_dim3(m_columns.cell(r, "Block X") + "," + m_columns.cell(r, "Block Y") + "," +
                       m_columns.cell(r, "Block Z"));
        if (!grid || !block) {
            throw ImportError(m_context.file.path, r.line, 0,
                              "kernel " + name + " without a whole-number grid and block");
        }
        launch.launch = model::LaunchConfig{
            *grid, *block, size_cell(r, "Static SMem") + size_cell(r, "Dynamic SMem"),
            size_cell(r, "Registers Per Thread")};
        launch.duration_ns = required_time(r, "Duration");
        m_context.table.add_launch(std::move(launch));
    }

    FileContext& m_context;
    Columns m_columns;
    bool m_trace;
    bool m_units_read = false;
    std::vector<std::string> m_units;
};

} // namespace

std::unique_ptr<TableReader> nvprof_reader_for(const CsvRecord& header, FileContext& context) {
    const Columns columns(header);
    auto start = [&context](const char* format) {
        context.file.tool = "nvprof";
        context.file.format = format;
    };
    if (columns.has_all({"Device", "Kernel", "Invocations", "Metric Name", "Avg"})) {
        start("nvprof-csv-metrics");
        return std::make_unique<NvprofSummaryReader>(context, header, "Metric Name");
    }
    if (columns.has_all({"Device", "Kernel", "Invocations", "Event Name", "Avg"})) {
        start("nvprof-csv-events");
        return std::make_unique<NvprofSummaryReader>(context, header, "Event Name");
    }
    if (columns.has_all({"Type", "Time", "Calls", "Avg", "Min", "Max", "Name"})) {
        start("nvprof-csv-gpu-summary");
        return std::make_unique<TimingReader>(context, header, false);
    }
    if (columns.has_all({"Start", "Duration", "Grid X", "Block X", "Name"})) {
        start("nvprof-csv-gpu-trace");
        return std::make_unique<TimingReader>(context, header, true);
    }
    return nullptr;
}

} // namespace irf::import
