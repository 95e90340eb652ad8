// SPDX-License-Identifier: Apache-2.0
#include "tools/import/profiler_log.hpp"

#include <algorithm>
#include <cctype>

#include "common/text_safety.hpp"

namespace irf::import {
namespace {

bool log_starts_with(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}

std::string trimmed_log_text(std::string text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
        text.pop_back();
    }
    const auto first = std::find_if(text.begin(), text.end(), [](char c) {
        return std::isspace(static_cast<unsigned char>(c)) == 0;
    });
    return std::string(first, text.end());
}

// The quoted kernel name after `prefix` ("Profiling \"k\" - 3: ..."), and what follows it.
bool quoted(const std::string& text, const std::string& prefix, std::string& name,
            std::string& rest) {
    if (!log_starts_with(text, prefix + "\"")) {
        return false;
    }
    const std::size_t close = text.find('"', prefix.size() + 1);
    if (close == std::string::npos) {
        return false;
    }
    name = text.substr(prefix.size() + 1, close - prefix.size() - 1);
    rest = text.substr(close + 1);
    return true;
}

// nvprof's "==12345== " prefix: the process id between two "==".
bool nvprof_prefix(const std::string& line, std::string& rest) {
    const std::size_t end = line.find("==", 2);
    if (end == std::string::npos || end == 2 ||
        !std::all_of(line.begin() + 2, line.begin() + static_cast<std::ptrdiff_t>(end),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
        return false;
    }
    rest = trimmed_log_text(line.substr(end + 2));
    return true;
}

} // namespace

void ProfilerLog::keep(const std::string& message) {
    if (std::find(m_messages.begin(), m_messages.end(), message) != m_messages.end()) {
        return;
    }
    if (m_messages.size() >= k_max_messages) {
        ++m_dropped;
        const std::string more = "and " + std::to_string(m_dropped) + " more profiler messages";
        if (m_dropped == 1) {
            m_messages.push_back(more);
        } else {
            m_messages.back() = more;
        }
        return;
    }
    m_messages.push_back(message);
}

void ProfilerLog::line(const std::string& text) {
    std::string name, rest;
    if (log_starts_with(text, "==PROF==")) {
        // "==PROF== Profiling "k" - 18: 0%....50%....100% - 19 passes"
        if (quoted(trimmed_log_text(text.substr(8)), "Profiling ", name, rest)) {
            m_kernel = name;
            const std::size_t dash = rest.find(" - ");
            const std::size_t colon = rest.find(':');
            m_launch = dash != std::string::npos && colon != std::string::npos && colon > dash
                           ? trimmed_log_text(rest.substr(dash + 3, colon - dash - 3))
                           : std::string();
        }
        return;
    }
    if (log_starts_with(text, "==ERROR==")) {
        const std::string what = trimmed_log_text(text.substr(9));
        if (quoted(what, "Failed to profile ", name, rest)) {
            const bool same = name == m_kernel && !m_launch.empty();
            keep("ncu failed to profile kernel \"" + common::printable(name) + "\"" +
                 (same ? " (launch " + m_launch + ")" : "") +
                 ": the file has no counters of that launch");
        } else if (!what.empty()) {
            keep("ncu: ==ERROR== " + common::printable(what));
        }
        return;
    }
    if (log_starts_with(text, "==WARNING==")) {
        const std::string what = trimmed_log_text(text.substr(11));
        // Notes ("Note: Running with uncontrolled GPU caches") describe a setting, not a failure.
        if (!what.empty() && !log_starts_with(what, "Note:")) {
            keep("ncu: ==WARNING== " + common::printable(what));
        }
        return;
    }
    if (nvprof_prefix(text, rest) &&
        (log_starts_with(rest, "Error") || rest.find("ERR_") != std::string::npos)) {
        keep("nvprof: " + common::printable(rest));
    }
}

} // namespace irf::import
