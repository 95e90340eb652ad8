// SPDX-License-Identifier: Apache-2.0
// irf-report html's escaping and page assembly (tools/irf_report/html_page.hpp): nothing in the
// data can close the script element or start markup, and each template slot is filled once.
#include <gtest/gtest.h>

#include "tools/irf_report/html_page.hpp"

namespace test_html_page {
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

TEST(HtmlPage, KernelNamesAreCutAt4096Characters) {
    // issue 52 item 10: a 4 MiB name made a 16 MiB page. 'k' then 5000 two-byte characters:
    // 4096 characters kept are 'k' and 4095 of them, never half of one.
    std::string name = "k";
    for (int i = 0; i < 5000; ++i) {
        name += "\xc3\xa9";
    }
    std::string cut = "k";
    for (int i = 0; i < 4095; ++i) {
        cut += "\xc3\xa9";
    }
    irf::model::Profile profile;
    irf::model::KernelRecord k;
    k.name = name;
    k.mangled = "_Z" + std::string(100000, 'x');
    k.launches = 1;
    k.time_ns.total = 1000;
    profile.kernels = {k};
    // A trajectory of the same kernel still finds its row by the cut name.
    const nlohmann::json trajectory = {
        {"kernels", {{{"name", name}, {"points", nlohmann::json::array()}}}}};
    const nlohmann::json data = irf::report::html_page_data(profile, "p.json", trajectory);
    EXPECT_EQ(data["kernels"][0][1], cut);
    EXPECT_EQ(data["trajectory"][0]["name"], cut);
    EXPECT_EQ(data["trajectory"][0]["row"], 0);
    const std::string text = data.dump();
    EXPECT_EQ(text.find(name), std::string::npos);
    EXPECT_EQ(text.find(std::string(4095, 'x')), std::string::npos); // mangled: "_Z" and 4094
    EXPECT_NE(text.find(std::string(4094, 'x')), std::string::npos);
    EXPECT_LT(text.size(), 60000u) << "three names of at most 8,191 bytes, and the rest";
}

TEST(HtmlPage, MissingSlotIsABrokenInstall) {
    HtmlAssets assets;
    assets.page = "@IRF_STYLE@";
    EXPECT_THROW(static_cast<void>(render_html_page(assets, "{}")), irf::report::AssetsMissing);
}

} // namespace
} // namespace test_html_page
