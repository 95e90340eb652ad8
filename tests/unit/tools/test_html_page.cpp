// SPDX-License-Identifier: Apache-2.0
// irf-report html's escaping and page assembly (tools/irf_report/html_page.hpp): nothing in the
// data can close the script element or start markup, and each template slot is filled once.
#include <gtest/gtest.h>

#include "tools/irf_report/html_page.hpp"

namespace {

using irf::report::HtmlAssets;
using irf::report::render_html_page;
using irf::report::script_safe_code;
using irf::report::script_safe_json;

TEST(HtmlPage, DataJsonHasNoMarkupCharacters) {
    const std::string name = "</script><img src=x onerror=alert(1)>&amp;\xe2\x80\xa8";
    const std::string text = script_safe_json({{"name", name}});
    EXPECT_EQ(text.find_first_of("<>&"), std::string::npos) << text;
    EXPECT_EQ(text.find("\xe2\x80\xa8"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(text)["name"], name); // JSON.parse reads it back unchanged
}

TEST(HtmlPage, InvalidUtf8BecomesReplacementCharacters) {
    const std::string text = script_safe_json({{"name", std::string("k\xff")}});
    EXPECT_EQ(nlohmann::json::parse(text)["name"], "k\xef\xbf\xbd");
}

TEST(HtmlPage, CodeCannotCloseItsScript) {
    EXPECT_EQ(script_safe_code("a='</SCRIPT>';b='<!--'"), "a='<\\/script>';b='<\\!--'");
}

TEST(HtmlPage, SlotsAreFilledOnceInOrder) {
    HtmlAssets assets;
    assets.page = "<style>@IRF_STYLE@</style>@IRF_PLOTLY@|@IRF_DATA@|@IRF_SCRIPT@";
    assets.style = "css";
    assets.plotly = "lib";
    assets.script = "js";
    // Slot names inside the data stay as they are: nothing is substituted twice.
    EXPECT_EQ(render_html_page(assets, "\"@IRF_SCRIPT@\""),
              "<style>css</style>lib|\"@IRF_SCRIPT@\"|js");
}

TEST(HtmlPage, MissingSlotIsABrokenInstall) {
    HtmlAssets assets;
    assets.page = "@IRF_STYLE@";
    EXPECT_THROW(static_cast<void>(render_html_page(assets, "{}")), irf::report::AssetsMissing);
}

} // namespace
