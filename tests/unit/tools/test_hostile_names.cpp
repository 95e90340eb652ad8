// SPDX-License-Identifier: Apache-2.0
// NVTX region and kernel names with control characters and Markdown syntax (issue #39 item 5):
// the text summary (libirf's and analyze's), compare's regions section, and the Markdown views
// escape them through common/text_safety. Before, ESC reached the terminal and a NUL cut the
// rest of the path.
#include <string>

#include <gtest/gtest.h>

#include "common/text_safety.hpp"
#include "model/summary/text_summary.hpp"
#include "tools/irf_report/compare_kernels.hpp"

namespace test_hostile_names {
namespace {

using irf::model::KernelRecord;
using irf::model::Profile;
using irf::model::RegionRecord;

const std::string k_hostile = std::string("step\x1b]0;owned\x07/fw\0d/", 20) + "x";

Profile with_region(const std::string& path) {
    Profile p;
    RegionRecord r;
    r.path = path;
    r.time_ns = 1000;
    r.launches = 1;
    r.kernels = 1;
    p.regions.push_back(r);
    // The summary's region tree is built from the kernels' parts (model/roofline/region_tree.hpp).
    KernelRecord k;
    k.name = "k";
    k.launches = 1;
    k.regions.push_back({path, 1, 1000, 0});
    p.kernels.push_back(k);
    return p;
}

TEST(HostileNames, RegionPathsAreEscapedInTheSummary) {
    const std::string text = irf::model::text_summary(with_region(k_hostile));
    EXPECT_EQ(text.find('\x1b'), std::string::npos);
    EXPECT_EQ(text.find('\x07'), std::string::npos);
    // The NUL no longer cuts: the tree shows "fw\x00d" and its child "x" (its own row).
    EXPECT_NE(text.find("fw\\x00d "), std::string::npos) << text;
    EXPECT_NE(text.find("      x "), std::string::npos) << text;
}

TEST(HostileNames, RegionPathsAreEscapedInCompare) {
    const Profile p = with_region(k_hostile);
    const std::string text = irf::report::compare_text(p, "a.json", p, "b.json");
    EXPECT_EQ(text.find('\x1b'), std::string::npos);
    EXPECT_NE(text.find("fw\\x00d/x"), std::string::npos) << text;
}

TEST(HostileNames, MarkdownTextAndCodeSpans) {
    EXPECT_EQ(irf::common::markdown_text("a|b<i>`c`&\\"), "a\\|b\\<i>\\`c\\`\\&\\\\");
    EXPECT_EQ(irf::common::markdown_code("gemm<float>"), "`gemm<float>`");
    EXPECT_EQ(irf::common::markdown_code("a`b``c|d"), "```a`b``c\\|d```");
    EXPECT_EQ(irf::common::markdown_code("`x"), "`` `x ``");
    EXPECT_EQ(irf::common::markdown_text("\x1b[31m"), "\\\\x1B[31m");
}

} // namespace
} // namespace test_hostile_names
