// SPDX-License-Identifier: Apache-2.0
// A streaming CSV record reader for ncu and nvprof exports: quoted fields with commas, doubled
// quotes and line breaks, CRLF line ends, and the text a profiler prints around its tables.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace irf::import {

/// One CSV record: its fields, the 1-based column where each starts, and its first line.
struct CsvRecord {
    std::vector<std::string> fields;
    std::vector<std::size_t> columns;
    std::size_t line = 0;
};

/// Reads records one at a time from a stream (memory bounded by the longest record). Lines
/// that are not CSV records (program output, "==PROF==" and nvprof's "==PID==" lines, blank
/// lines) are given back as text so the caller decides what they are.
class CsvReader {
public:
    /// Reads from `in`; `file` names it in errors.
    CsvReader(std::istream& in, std::string file);

    /// The next physical line without its line end (LF, CRLF or a lone CR, as old Mac tools
    /// write), or false at the end of the stream. A UTF-8 byte order mark at the start (Excel's
    /// "CSV UTF-8") is skipped. Throws ImportError for UTF-16 text (PowerShell's `>`) and for a
    /// line longer than k_max_record_bytes, read no further than that.
    bool next_line(std::string& line);

    /// Parses `line` (just read by next_line) as a record, reading further lines while a quoted
    /// field is open. Throws ImportError (file, line, column) for an unclosed quote or text
    /// after a closing quote, or a record over the size limit.
    void parse(const std::string& line, CsvRecord& record);

    /// The 1-based number of the line read last.
    [[nodiscard]] std::size_t line_number() const { return m_line; }

    /// The file name given at construction.
    [[nodiscard]] const std::string& file() const { return m_file; }

private:
    /// Replaces the consumed buffer with the next chunk of the stream; false at its end.
    bool fill();
    /// Skips a UTF-8 byte order mark and refuses UTF-16, at the first chunk.
    void check_encoding();

    std::istream& m_in;
    std::string m_file;
    std::size_t m_line = 0;
    std::string m_buffer; ///< read ahead of the lines given back
    std::size_t m_pos = 0;
    bool m_started = false;
};

/// Largest record accepted (a kernel name is long, a record of 500 metric columns longer).
inline constexpr std::size_t k_max_record_bytes = 16u << 20;

} // namespace irf::import
