// SPDX-License-Identifier: Apache-2.0
// irf-report csv: one row per kernel with the analysed values (RFC 4180).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "model/profile/profile.hpp"

namespace irf::report {

/// The line end of every CSV irf writes: LF, as pandas, awk and diff expect on the clusters our
/// users work on (RFC 4180's CRLF is the one departure; quoting follows it).
inline constexpr const char* k_csv_line_end = "\n";

/// Quotes a CSV field when RFC 4180 requires it (comma, double quote, CR or LF inside); a cell a
/// spreadsheet would run as a formula (= + - @ tab CR first, not a number) gets a leading ' and
/// quotes; bytes that are not UTF-8 become U+FFFD.
[[nodiscard]] std::string csv_field(const std::string& text);

/// The profile as CSV: a header row, then one row per kernel in profile order; absent values
/// are empty cells; projection columns per target (sorted); lines end in LF. The rows are
/// formatted on up to `threads` threads; the text is the same on any number.
[[nodiscard]] std::string profile_csv(const model::Profile& profile, unsigned threads = 1);

/// profile_csv's text in parts, in order, each given to `emit` (the header, then each thread's
/// rows), so that a writer need not hold it whole.
void profile_csv_to(const model::Profile& profile, unsigned threads,
                    const std::function<void(std::string_view)>& emit);

/// A number with ten significant digits; "" when absent or not finite.
[[nodiscard]] std::string csv_number(std::optional<double> value);

/// `csv --regions`: one row per NVTX region (path, time, launches, kernels, rolled-up analysis).
[[nodiscard]] std::string regions_csv(const model::Profile& profile);

} // namespace irf::report
