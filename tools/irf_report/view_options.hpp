// SPDX-License-Identifier: Apache-2.0
// The slicing options every kernel table of irf-report takes (analyze, csv, compare): one
// spelling, one default, one parser.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "common/kernel_name.hpp"
#include "model/profile/kernel_labels.hpp"

namespace irf::report {

/// The default of every --top (irf-report and irf-plot).
inline constexpr std::size_t k_default_top = 10;

/// -k REGEX, --sort, --top, --names and (where `with_format`) --format as parsed.
struct ViewOptions {
    std::string kernels; ///< RE2 regex, "" for all
    std::size_t top = k_default_top;
    std::string sort = "time";
    std::string names = "function";
    std::string format = "text";
    std::size_t width = 0; ///< --width; 0: from the terminal (COLUMNS) and the name mode

    /// The --sort value as an order (validated by CLI11 when parsed).
    [[nodiscard]] model::KernelOrder order() const;
    /// The --names value as a mode (validated by CLI11 when parsed).
    [[nodiscard]] common::NameMode name_mode() const;
    /// The width of name columns: --width when given; else 0 (no cut) for --names demangled
    /// or mangled; else COLUMNS minus the other columns of the kernel table, from 40 to 200.
    [[nodiscard]] std::size_t name_width() const;
};

/// Adds -k/--kernels, --sort, --top, --names and --width to `app`, plus --format text|md when
/// `with_format`; `top_help` says what --top counts.
void add_view_options(CLI::App& app, ViewOptions& options, bool with_format,
                      const std::string& top_help);

} // namespace irf::report
