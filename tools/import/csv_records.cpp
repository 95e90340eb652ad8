// SPDX-License-Identifier: Apache-2.0
// RFC 4180 records as ncu and nvprof write them (docs/import.md, "Quirks").
#include "tools/import/csv_records.hpp"

#include "common/text_safety.hpp"
#include "tools/import/import_error.hpp"

namespace irf::import {

ImportError::ImportError(const std::string& file, std::size_t line, std::size_t column,
                         const std::string& message)
    // Cells quoted into a message may hold line breaks or escapes: one printable line always.
    : common::BadInput(common::printable(file) +
                       (line > 0 ? ":" + std::to_string(line) : std::string()) +
                       (line > 0 && column > 0 ? ":" + std::to_string(column) : std::string()) +
                       ": " + common::printable(message)) {}

CsvReader::CsvReader(std::istream& in, std::string file) : m_in(in), m_file(std::move(file)) {}

bool CsvReader::next_line(std::string& line) {
    if (!std::getline(m_in, line)) {
        return false;
    }
    ++m_line;
    if (!line.empty() && line.back() == '\r') {
        line.pop_back(); // CRLF exports (ncu on Windows, files passed through a Windows share)
    }
    return true;
}

namespace {

// The state of one record being split; `text` grows when a quoted field spans lines.
struct Splitter {
    std::string field;
    bool in_quotes = false;
    bool was_quoted = false;
    std::size_t start_column = 1;
};

} // namespace

void CsvReader::parse(const std::string& line, CsvRecord& record) {
    record.fields.clear();
    record.columns.clear();
    record.line = m_line;
    Splitter s;
    std::string text = line;
    std::size_t column = 0; // 1-based column of text[i] on the current physical line
    std::size_t total = text.size();
    for (std::size_t i = 0;; ++i) {
        if (i == text.size()) {
            if (!s.in_quotes) {
                record.fields.push_back(std::move(s.field));
                record.columns.push_back(s.start_column);
                return;
            }
            // A line break inside quotes belongs to the field.
            std::string more;
            if (!next_line(more)) {
                throw ImportError(m_file, record.line, s.start_column,
                                  "a quoted field is not closed before the end of the file");
            }
            total += more.size() + 1;
            if (total > k_max_record_bytes) {
                throw ImportError(m_file, record.line, s.start_column,
                                  "a record longer than 16 MiB (an unclosed quote?)");
            }
            s.field += '\n';
            text = std::move(more);
            i = static_cast<std::size_t>(-1);
            column = 0;
            continue;
        }
        ++column;
        const char c = text[i];
        if (s.in_quotes) {
            if (c != '"') {
                s.field += c;
            } else if (i + 1 < text.size() && text[i + 1] == '"') {
                s.field += '"'; // "" inside quotes is one quote (a kernel name's quote)
                ++i;
                ++column;
            } else {
                s.in_quotes = false;
            }
            continue;
        }
        if (c == ',') {
            record.fields.push_back(std::move(s.field));
            record.columns.push_back(s.start_column);
            s = Splitter{};
            s.start_column = column + 1;
        } else if (c == '"' && s.field.empty() && !s.was_quoted) {
            s.in_quotes = true;
            s.was_quoted = true;
        } else if (s.was_quoted) {
            throw ImportError(m_file, m_line, column,
                              "text after the closing quote of a field (a stray '\"'?)");
        } else {
            s.field += c;
        }
    }
}

} // namespace irf::import
