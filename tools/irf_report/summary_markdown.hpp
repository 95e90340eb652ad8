// SPDX-License-Identifier: Apache-2.0
// `irf-report analyze --format md`: the kernel table as Markdown, for issues and pull requests.
#pragma once

#include <string>

#include "model/profile/profile.hpp"
#include "model/summary/text_summary.hpp"

namespace irf::report {

/// `text` as a Markdown table cell (common::markdown_text: terminal- and table-safe).
[[nodiscard]] std::string markdown_cell(const std::string& text);

/// A heading naming the app and GPU, then one Markdown table row per shown kernel (`view`):
/// total time, share, launches, mean/min/max per launch, bound, % of roofline (with "(>100%!)"
/// when above it), global pattern, shared conflict ways, active threads, projected speedups.
[[nodiscard]] std::string summary_markdown(const model::Profile& profile,
                                           const model::SummaryView& view);

} // namespace irf::report
