// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the format readers (docs/import.md).
#include "tools/import/table_reader.hpp"

#include <cmath>

#include "tools/import/import_error.hpp"
#include "tools/import/values.hpp"

namespace irf::import {

Columns::Columns(const CsvRecord& header) : m_size(header.fields.size()), m_line(header.line) {
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        m_index.emplace(header.fields[i], i); // a repeated name: the first column wins
    }
}

std::optional<std::size_t> Columns::find(const std::string& name) const {
    const auto it = m_index.find(name);
    return it == m_index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

bool Columns::has_all(std::initializer_list<const char*> names) const {
    for (const char* name : names) {
        if (!find(name)) {
            return false;
        }
    }
    return true;
}

std::string Columns::cell(const CsvRecord& row, const std::string& name) const {
    const auto index = find(name);
    return index && *index < row.fields.size() ? row.fields[*index] : std::string();
}

namespace {

const char* kind_name(config::ForeignKind kind) {
    switch (kind) {
    case config::ForeignKind::time:
        return "a time";
    case config::ForeignKind::bytes:
        return "a size in bytes";
    case config::ForeignKind::frequency:
        return "a frequency";
    case config::ForeignKind::count:
        return "a count";
    case config::ForeignKind::percent:
        return "a percentage";
    }
    return "a value";
}

} // namespace

std::optional<double> metric_value(const FileContext& context, const CsvRecord& record,
                                   std::size_t index, const config::ForeignMetric& metric,
                                   const std::string& unit, std::optional<std::size_t> unit_index) {
    std::string_view text = record.fields[index];
    if (metric.kind == config::ForeignKind::percent && !text.empty() && text.back() == '%') {
        text.remove_suffix(1); // nvprof's "87.50%"
    }
    const CellValue cell = parse_cell(text);
    const std::size_t column = record.columns[index];
    if (cell.status == CellValue::Status::absent) {
        return std::nullopt;
    }
    if (cell.status == CellValue::Status::bad) {
        throw ImportError(context.file.path, record.line, column,
                          "'" + record.fields[index].substr(0, 40) + "' is not a number");
    }
    const auto factor = unit_factor(metric.kind, unit);
    if (!factor) {
        const std::size_t unit_column = unit_index && *unit_index < record.columns.size()
                                            ? record.columns[*unit_index]
                                            : column;
        throw ImportError(context.file.path, record.line, unit_column,
                          "unit '" + unit.substr(0, 40) + "' is not " + kind_name(metric.kind) +
                              " unit (irf reads it as " + metric.canonical + ")");
    }
    if (cell.value < 0) {
        throw ImportError(context.file.path, record.line, column,
                          "negative value for " + metric.canonical);
    }
    const double value = cell.value * *factor / metric.divisor;
    if (!std::isfinite(value)) {
        // In base units it would be written as absent, without a word (issue 52 item 5).
        throw ImportError(context.file.path, record.line, column,
                          "'" + record.fields[index].substr(0, 40) + "' " + unit.substr(0, 40) +
                              " is beyond the largest number irf keeps (1.8e308) once in base "
                              "units (irf reads it as " +
                              metric.canonical + ")");
    }
    return value;
}

void note_gpu(FileContext& context, const std::string& device, const std::string& cc,
              std::size_t line) {
    ImportedFile& f = context.file;
    if (device.empty() && cc.empty()) {
        return;
    }
    if (f.device.empty() && f.cc.empty()) {
        f.device = device;
        f.cc = cc;
        context.gpu_line = line;
        return;
    }
    if ((!device.empty() && device != f.device) || (!cc.empty() && cc != f.cc)) {
        throw ImportError(f.path, line, 0,
                          "a second GPU ('" + device + "', cc " + cc + "; line " +
                              std::to_string(context.gpu_line) + " has '" + f.device + "', cc " +
                              f.cc + "): import one GPU's launches per profile");
    }
}

std::unique_ptr<TableReader> reader_for(const CsvRecord& header, FileContext& context) {
    if (auto reader = ncu_reader_for(header, context)) {
        return reader;
    }
    return nvprof_reader_for(header, context);
}

} // namespace irf::import
