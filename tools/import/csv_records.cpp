// SPDX-License-Identifier: Apache-2.0
// RFC 4180 records as ncu and nvprof write them (docs/import.md, "Quirks").
#include "tools/import/csv_records.hpp"

#include <algorithm>

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

bool CsvReader::fill() {
    constexpr std::size_t k_chunk = 64 * 1024;
    m_buffer.resize(k_chunk);
    m_in.read(m_buffer.data(), static_cast<std::streamsize>(k_chunk));
    m_buffer.resize(static_cast<std::size_t>(std::max<std::streamsize>(m_in.gcount(), 0)));
    m_pos = 0;
    return !m_buffer.empty();
}

void CsvReader::check_encoding() {
    m_started = true;
    if (!fill()) {
        return;
    }
    const auto byte = [this](std::size_t i) {
        return i < m_buffer.size() ? static_cast<unsigned char>(m_buffer[i]) : 0x100u;
    };
    if (byte(0) == 0xef && byte(1) == 0xbb && byte(2) == 0xbf) {
        m_pos = 3; // Excel's "CSV UTF-8" and Notepad write a byte order mark
        return;
    }
    // A UTF-16 byte order mark, or ASCII text with every other byte zero.
    if ((byte(0) == 0xff && byte(1) == 0xfe) || (byte(0) == 0xfe && byte(1) == 0xff) ||
        (byte(1) == 0 && byte(3) == 0 && byte(0) != 0) ||
        (byte(0) == 0 && byte(2) == 0 && byte(1) != 0)) {
        throw ImportError(m_file, 0, 0,
                          "UTF-16 text (PowerShell's '>' writes it): irf reads UTF-8; convert "
                          "it first (iconv -f UTF-16 -t UTF-8 IN > OUT, or in PowerShell "
                          "Out-File -Encoding utf8)");
    }
}

bool CsvReader::next_line(std::string& line) {
    if (!m_started) {
        check_encoding();
    }
    line.clear();
    bool any = false;
    while (true) {
        const std::size_t end = m_buffer.find_first_of("\r\n", m_pos);
        if (end != std::string::npos) {
            line.append(m_buffer, m_pos, end - m_pos);
            m_pos = end + 1;
            // CRLF (ncu on Windows, a Windows share) is one line end; a lone CR is one too.
            if (m_buffer[end] == '\r' && (m_pos < m_buffer.size() || fill()) &&
                m_buffer[m_pos] == '\n') {
                ++m_pos;
            }
            any = true;
        } else {
            any = any || m_pos < m_buffer.size();
            line.append(m_buffer, m_pos, std::string::npos);
            m_pos = m_buffer.size();
        }
        if (line.size() > k_max_record_bytes) {
            throw ImportError(m_file, m_line + 1, 0,
                              "a line longer than 16 MiB (not an ncu or nvprof export?)");
        }
        if (end != std::string::npos || !fill()) {
            break;
        }
    }
    if (!any) {
        return false;
    }
    ++m_line;
    return true;
}

namespace {

// The state of one field being split (a quoted field may span physical lines).
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
    // The line is read in place; only a continuation line of a quoted field is held beside it.
    const std::string* text = &line;
    std::string more;
    std::size_t column = 0; // 1-based column of text[i] on the current physical line
    std::size_t total = text->size();
    for (std::size_t i = 0;; ++i) {
        if (i == text->size()) {
            if (!s.in_quotes) {
                record.fields.push_back(std::move(s.field));
                record.columns.push_back(s.start_column);
                return;
            }
            // A line break inside quotes belongs to the field.
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
            text = &more;
            i = static_cast<std::size_t>(-1);
            column = 0;
            continue;
        }
        ++column;
        const char c = (*text)[i];
        if (s.in_quotes) {
            if (c != '"') {
                s.field += c;
            } else if (i + 1 < text->size() && (*text)[i + 1] == '"') {
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
