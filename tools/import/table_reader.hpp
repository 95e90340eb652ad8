// SPDX-License-Identifier: Apache-2.0
// One table of an export (after its header row): the formats' readers share this interface and
// the helpers that read identity columns and metric values with file:line:column errors.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "tools/import/csv_records.hpp"
#include "tools/import/imported.hpp"

namespace irf::import {

/// The file being read: where its kernels go and what it says about itself.
struct FileContext {
    ImportedFile file;
    KernelTable table;
    std::size_t gpu_line = 0; ///< line that named the file's GPU
};

/// Column positions of a header row, by name.
class Columns {
public:
    /// Indexes `header`'s fields.
    explicit Columns(const CsvRecord& header);
    /// The index of `name`, or nullopt.
    [[nodiscard]] std::optional<std::size_t> find(const std::string& name) const;
    /// True when every name is a column.
    [[nodiscard]] bool has_all(std::initializer_list<const char*> names) const;
    /// The cell of column `name` in `row` ("" when the header has no such column).
    [[nodiscard]] std::string cell(const CsvRecord& row, const std::string& name) const;
    /// Number of columns.
    [[nodiscard]] std::size_t size() const { return m_size; }
    /// The header row's line.
    [[nodiscard]] std::size_t line() const { return m_line; }

private:
    std::map<std::string, std::size_t> m_index;
    std::size_t m_size = 0;
    std::size_t m_line = 0;
};

/// Reads the rows of one table into a FileContext.
class TableReader {
public:
    virtual ~TableReader() = default;
    /// One data row (its field count already checked against the header).
    virtual void row(const CsvRecord& record) = 0;
    /// The end of the table.
    virtual void finish() {}
};

/// A metric cell in base units divided as `metric` says: nullopt for "n/a" or empty. Throws
/// ImportError at the cell for a value that is not a number, or at the unit's cell
/// (`unit_index` in the same row; else the value's) for a unit `metric` cannot have.
[[nodiscard]] std::optional<double> metric_value(const FileContext& context,
                                                 const CsvRecord& record, std::size_t index,
                                                 const config::ForeignMetric& metric,
                                                 const std::string& unit,
                                                 std::optional<std::size_t> unit_index = {});

/// Records the GPU a row names (device name and "M.m"); ImportError when a file names two.
void note_gpu(FileContext& context, const std::string& device, const std::string& cc,
              std::size_t line);

/// The reader for the table whose header is `header`, or nullptr when it is not one irf reads.
[[nodiscard]] std::unique_ptr<TableReader> reader_for(const CsvRecord& header,
                                                      FileContext& context);

/// Readers of each family, tried in turn by reader_for.
[[nodiscard]] std::unique_ptr<TableReader> ncu_reader_for(const CsvRecord& header,
                                                          FileContext& context);
/// nvprof's metric, event and timing tables.
[[nodiscard]] std::unique_ptr<TableReader> nvprof_reader_for(const CsvRecord& header,
                                                             FileContext& context);

} // namespace irf::import
