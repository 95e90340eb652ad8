// SPDX-License-Identifier: Apache-2.0
// The option table as text: the effective settings, the Markdown table of docs/configuration.md
// and the names of the enumerated settings.
#include "config/env.hpp"

namespace irf::config {
namespace {

/// `text` with every '|' escaped, so that it stays inside one Markdown table cell.
std::string markdown_cell(std::string text) {
    for (std::size_t pos = 0; (pos = text.find('|', pos)) != std::string::npos; pos += 2) {
        text.replace(pos, 1, "\\|");
    }
    return text;
}

} // namespace

std::map<std::string, std::string> Config::effective() const {
    std::map<std::string, std::string> out;
    for (const OptionSpec& spec : option_table()) {
        out[spec.name] = spec.show(*this);
    }
    return out;
}

std::string options_markdown() {
    std::string md = "| variable | default | meaning | invalid value |\n|---|---|---|---|\n";
    for (const OptionSpec& spec : option_table()) {
        md += std::string("| `") + spec.name + "` | " + markdown_cell(spec.default_doc) + " | " +
              markdown_cell(spec.meaning) + " | " + spec.on_invalid + " |\n";
    }
    return md;
}

const char* to_string(SummaryMode mode) {
    switch (mode) {
    case SummaryMode::stderr_only:
        return "stderr";
    case SummaryMode::file:
        return "file";
    case SummaryMode::both:
        return "both";
    case SummaryMode::none:
        return "none";
    }
    return "both";
}

const char* to_string(LogLevel level) {
    switch (level) {
    case LogLevel::error:
        return "error";
    case LogLevel::warn:
        return "warn";
    case LogLevel::info:
        return "info";
    case LogLevel::debug:
        return "debug";
    }
    return "warn";
}

} // namespace irf::config
