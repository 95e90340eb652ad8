// SPDX-License-Identifier: Apache-2.0
// The table loop: find a header irf knows, read its rows, repeat (nvprof may write several).
#include "tools/import/read_export.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>

#include "common/text_safety.hpp"
#include "tools/import/import_error.hpp"
#include "tools/import/ncu_report.hpp"
#include "tools/import/profiler_log.hpp"
#include "tools/import/table_reader.hpp"

namespace irf::import {
namespace {

// Profiler log lines: ncu's "==PROF==", "==WARNING==", "==ERROR==" and nvprof's "==1234==".
bool is_log_line(const std::string& line) {
    return line.rfind("==", 0) == 0;
}

// A line whose quotes pair up and that starts with one: a header never spans lines.
bool could_be_header_line(const std::string& line) {
    return line.front() == '"' && std::count(line.begin(), line.end(), '"') % 2 == 0;
}

bool could_be_header(const CsvRecord& record) {
    const std::string& first = record.fields.front();
    return first == "ID" || first == "Device" || first == "Type" || first == "Start";
}

// Columns ncu fills only on the rows of its rules (the details page's guidance). Older ncu
// versions (2022, seen in public exports) end a metric row after "Metric Value" and one empty
// field, so such rows are short by these columns: they read as empty, as on a newer ncu.
bool is_rule_column(const std::string& name) {
    return name.rfind("Rule ", 0) == 0 || name.rfind("Estimated Speedup", 0) == 0;
}

void check_row_width(const FileContext& context, CsvRecord& row, const CsvRecord& header) {
    const std::size_t header_width = header.fields.size();
    if (row.fields.size() < header_width &&
        std::all_of(header.fields.begin() + static_cast<std::ptrdiff_t>(row.fields.size()),
                    header.fields.end(), is_rule_column)) {
        row.fields.resize(header_width);
        row.columns.resize(header_width, row.columns.empty() ? 0 : row.columns.back());
        return;
    }
    if (row.fields.size() != header_width) {
        const std::size_t index = std::min(row.fields.size(), header_width) - 1;
        throw ImportError(context.file.path, row.line, row.columns[index],
                          std::to_string(row.fields.size()) + " fields where the header at line " +
                              std::to_string(header.line) + " has " + std::to_string(header_width));
    }
}

// A sum over launches, or a summary's average x invocations, beyond double range would be written
// as absent without a word (issue 52 item 5): refused, naming the kernel's first row and what.
void check_sums(const ImportedFile& file) {
    for (const ImportedKernel& k : file.kernels) {
        std::string what;
        for (const auto& [name, value] : k.counters) {
            if (!std::isfinite(value)) {
                what = name;
                break;
            }
        }
        if (what.empty() && k.time_ns &&
            !(std::isfinite(k.time_ns->total) && std::isfinite(k.time_ns->max))) {
            what = "the duration";
        }
        if (!what.empty()) {
            throw ImportError(file.path, k.line, 0,
                              "kernel " + common::utf8_prefix(k.name, 80) + ": " + what +
                                  " is beyond the largest number irf keeps (1.8e308) once "
                                  "summed over its " +
                                  std::to_string(k.launches) + " launches");
        }
    }
}

} // namespace

ImportedFile read_export(std::istream& in, const std::string& path) {
    FileContext context;
    context.file.path = path;
    CsvReader reader(in, path);
    std::unique_ptr<TableReader> table;
    CsvRecord header;
    std::string line;
    CsvRecord record;
    ProfilerLog log; // what the profiler said of its own run (profiler_log.hpp)
    while (reader.next_line(line)) {
        if (is_log_line(line)) {
            log.line(line);
            continue;
        }
        if (line.empty()) {
            continue;
        }
        // Before the first table only a whole quoted CSV line may be a header; anything else
        // is the program's own output.
        if (!table && !could_be_header_line(line)) {
            continue;
        }
        if (!table) {
            try {
                reader.parse(line, record);
            } catch (const ImportError&) {
                continue;
            }
        } else {
            reader.parse(line, record);
        }
        // A data row is never a header: test only rows that start like one (a table's first
        // column is ID, Device, Type or Start), so a 500-column raw page is indexed once.
        if (!table || could_be_header(record)) {
            if (auto next = reader_for(record, context)) {
                if (table) {
                    table->finish();
                }
                table = std::move(next);
                header = record;
                continue;
            }
        }
        if (table) {
            check_row_width(context, record, header);
            table->row(record);
        }
    }
    if (in.bad()) {
        throw ImportError(path, reader.line_number(), 0, "read error");
    }
    // With no table, the profiler's own error is the reason (ERR_NVGPUCTRPERM, a failed launch).
    const std::string said =
        log.messages().empty() ? std::string() : "; the profiler said: " + log.messages().front();
    if (!table) {
        throw ImportError(path, 0, 0,
                          "no ncu or nvprof CSV table found (docs/import.md lists the formats: "
                          "ncu --csv, ncu --csv --page raw, nvprof --csv)" +
                              said);
    }
    table->finish();
    context.file.kernels = context.table.finish();
    check_sums(context.file);
    if (context.file.kernels.empty()) {
        throw ImportError(path, 0, 0, "the " + context.file.format + " table has no kernel" + said);
    }
    context.file.profiler_messages = log.messages();
    return std::move(context.file);
}

ImportedFile read_export_file(const std::string& path, double ncu_limit_s) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        throw ImportError(path, 0, 0, "cannot read: no such file");
    }
    if (!S_ISREG(st.st_mode)) {
        throw ImportError(path, 0, 0, "not a regular file");
    }
    if (is_ncu_report(path)) {
        return read_ncu_report(path, ncu_limit_s);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw ImportError(path, 0, 0, "cannot open for reading");
    }
    return read_export(in, path);
}

} // namespace irf::import
