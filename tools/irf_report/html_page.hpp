// SPDX-License-Identifier: Apache-2.0
// `irf-report html`: one self-contained interactive page per profile (docs/tools.md). The page
// is the installed template (tools/irf_report/html/) with the plotting library, the scripts and
// the profile's data inlined, so it opens offline and makes no network request.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "model/profile/profile.hpp"

namespace irf::report {

/// Sizes that keep a page of 10,000 kernels under 10 MB (docs/performance.md, "HTML report").
struct PageLimits {
    std::size_t details_bytes = 1u << 20; ///< `irf-report show` sections, longest kernels first
    std::size_t figure_kernels = 20;      ///< kernels in the projection and per-rank figures
    std::size_t regions = 200;            ///< NVTX regions, longest first
    std::size_t warnings = 200;           ///< profile warnings shown in the header
};

/// The page's data, one JSON document: `header` (app, GPU, ceilings with provenance, coverage,
/// warnings), `kernels` (column names and one row per kernel, longest first), `details` (show's
/// sections per kernel within the byte budget, else null), `projection`, `ranks`, `regions` and
/// `trajectory` (the irf.trajectory/v1 document given, or null). `source` names the input file.
[[nodiscard]] nlohmann::json html_page_data(const model::Profile& profile,
                                            const std::string& source,
                                            const std::optional<nlohmann::json>& trajectory,
                                            const PageLimits& limits = {});

/// The parts of an irf.trajectory/v1 document (`irf-report trajectory -o`) the page draws, each
/// checked for its type: per kernel its name, its points' SMs (a whole number), time, warp GIPS
/// and intensities, and its verdict's kind (one of docs/trajectories.md's) and reason. Anything
/// else is left out; a wrong type is an InputError naming `path` and the value
/// ("T.json: kernels[2].points[0].sms: not a whole number of SMs").
[[nodiscard]] nlohmann::json checked_trajectory(const nlohmann::json& doc, const std::string& path);

/// `data` as text for an inline `<script type="application/json">`: `<`, `>`, `&` and the
/// line separators U+2028/U+2029 written as \uXXXX escapes, so that no name in it can close
/// the element or start markup, and JSON.parse still reads it unchanged.
[[nodiscard]] std::string script_safe_json(const nlohmann::json& data);

/// Script text made safe to inline in a `<script>` element: `</script` and `<!--` cannot occur
/// in it (both only ever appear inside string literals of the pinned library, where the escaped
/// forms `<\/script` and `<\!--` read the same).
[[nodiscard]] std::string script_safe_code(std::string code);

/// The template, style, scripts and plotting library of the page, read from the installed
/// assets (<prefix>/share/irf/html) or the build tree's copy.
struct HtmlAssets {
    std::string page;   ///< report.html with its @IRF_...@ slots
    std::string style;  ///< report.css
    std::string script; ///< report_*.js, in load order
    std::string plotly; ///< plotly.min.js (pinned, scripts/fetch-plotly.sh)
};

/// Loads the assets; throws AssetsMissing naming the file and how to get it.
[[nodiscard]] HtmlAssets load_html_assets();

/// A required asset is absent (the plotting library was never fetched): the work cannot be
/// done, exit code 1.
class AssetsMissing : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The whole page: the template with the style, the library, the scripts and `data_json`
/// (script_safe_json) in their slots, each slot filled once (text inside the data is never
/// taken for a slot).
[[nodiscard]] std::string render_html_page(const HtmlAssets& assets, const std::string& data_json);

} // namespace irf::report
