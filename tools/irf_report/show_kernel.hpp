// SPDX-License-Identifier: Apache-2.0
// `irf-report show`: one kernel of a profile in full, as titled tables (text or Markdown).
#pragma once

#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::report {

/// One part of the page: a title, an optional header row, rows of cells and lines under them
/// (reasons, notes). Every number in a cell carries its unit or its column header gives it.
struct ShowSection {
    std::string title;
    std::vector<std::string> header; ///< empty: a two-column "what | value" list
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> lines;
};

/// Identity, launch configuration, call site, launches and time, counters and NVTX regions of
/// `kernel`, shown as `label` (its display name in the profile's tables).
[[nodiscard]] std::vector<ShowSection> kernel_sections(const model::KernelRecord& kernel,
                                                       const std::string& label);

/// Every verdict of `kernel` with the numbers behind it (Instruction Roofline per level with
/// the ceilings of `profile`, walls, predication, FLOP roofline, mix, the kernel's Eq. 2-8
/// ceilings, projections with interval, confidence and reasons), then verdicts left out.
[[nodiscard]] std::vector<ShowSection> verdict_sections(const model::Profile& profile,
                                                        const model::KernelRecord& kernel);

/// The sections as aligned plain text; cells are escaped for a terminal.
[[nodiscard]] std::string render_text(const std::vector<ShowSection>& sections);

/// The sections as Markdown (a heading and a table each, lines as a list); cells escaped.
[[nodiscard]] std::string render_markdown(const std::vector<ShowSection>& sections);

/// The unit of canonical counter `name` ("warp instructions", "sectors (32 B)", "ns", ...),
/// from the naming rules of docs/metrics.md; "" when the name follows none of them.
[[nodiscard]] std::string counter_unit(const std::string& name);

} // namespace irf::report
