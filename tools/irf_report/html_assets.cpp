// SPDX-License-Identifier: Apache-2.0
// The HTML page's assets (template, style, scripts, the pinned plotting library) and the page
// put together from them (html_page.hpp).
#include <filesystem>

#include "common/file_io.hpp"
#include "tools/irf_report/html_page.hpp"
#include "tools/irf_report/tools_common.hpp"

#ifndef IRF_BUILD_TREE_HTML_DIR
#define IRF_BUILD_TREE_HTML_DIR ""
#endif

namespace irf::report {
namespace {

namespace fs = std::filesystem;

/// The page's scripts, in the order they load (each uses only those before it).
constexpr const char* k_scripts[] = {"report_util.js", "report_figures.js", "report_flops.js",
                                     "report_table.js", "report_main.js"};

/// <prefix>/share/irf/html next to an installed irf-report, else the build tree's copy.
std::string assets_dir() {
    const std::string bin = exe_dir();
    if (!bin.empty()) {
        std::error_code ec;
        const fs::path installed = fs::path(bin).parent_path() / "share" / "irf" / "html";
        if (fs::is_regular_file(installed / "report.html", ec)) {
            return installed.string();
        }
    }
    return IRF_BUILD_TREE_HTML_DIR;
}

std::string read_asset(const std::string& dir, const std::string& name, const char* remedy) {
    std::string text;
    const std::string path = dir + "/" + name;
    const std::string error = common::read_file_bounded(path, text, 64u << 20);
    if (!error.empty()) {
        throw AssetsMissing("HTML report asset missing: " + error + remedy);
    }
    return text;
}

/// Replaces every occurrence of `from` (ASCII, matched case-insensitively) by `to`.
void replace_all_nocase(std::string& text, const std::string& from, const std::string& to) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        bool match = i + from.size() <= text.size();
        for (std::size_t j = 0; match && j < from.size(); ++j) {
            match = lower(text[i + j]) == from[j];
        }
        if (match) {
            out += to;
            i += from.size();
        } else {
            out += text[i++];
        }
    }
    text = std::move(out);
}

} // namespace

std::string script_safe_json(const nlohmann::json& data) {
    const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '<') {
            out += "\\u003c";
        } else if (c == '>') {
            out += "\\u003e";
        } else if (c == '&') {
            out += "\\u0026";
        } else if (c == '\xe2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
                   (text[i + 2] == '\xa8' || text[i + 2] == '\xa9')) {
            out += text[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

std::string script_safe_code(std::string code) {
    replace_all_nocase(code, "</script", "<\\/script");
    replace_all_nocase(code, "<!--", "<\\!--");
    return code;
}

HtmlAssets load_html_assets() {
    const std::string dir = assets_dir();
    const char* const reinstall = " (a broken install: reinstall irf)";
    HtmlAssets assets;
    assets.page = read_asset(dir, "report.html", reinstall);
    assets.style = read_asset(dir, "report.css", reinstall);
    for (const char* name : k_scripts) {
        assets.script += script_safe_code(read_asset(dir, name, reinstall)) + "\n";
    }
    assets.plotly = script_safe_code(read_asset(
        dir, "plotly.min.js",
        " (the plotting library was not fetched when irf was built: run scripts/fetch-plotly.sh "
        "with network access to the npm registry, then cmake again)"));
    return assets;
}

std::string render_html_page(const HtmlAssets& assets, const std::string& data_json) {
    const std::pair<const char*, const std::string*> slots[] = {{"@IRF_STYLE@", &assets.style},
                                                                {"@IRF_PLOTLY@", &assets.plotly},
                                                                {"@IRF_DATA@", &data_json},
                                                                {"@IRF_SCRIPT@", &assets.script}};
    std::string page;
    page.reserve(assets.page.size() + assets.plotly.size() + data_json.size() +
                 assets.script.size() + assets.style.size());
    std::size_t from = 0;
    for (const auto& [slot, text] : slots) {
        const std::size_t at = assets.page.find(slot, from);
        if (at == std::string::npos) {
            throw AssetsMissing(std::string("HTML report template has no ") + slot +
                                " slot (a broken install: reinstall irf)");
        }
        page.append(assets.page, from, at - from);
        page += *text;
        from = at + std::string(slot).size();
    }
    page.append(assets.page, from, std::string::npos);
    return page;
}

} // namespace irf::report
