// SPDX-License-Identifier: Apache-2.0
// UTF-8 replacement, terminal escaping and safe truncation (issue 22 items 2 and 5).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/text_safety.hpp"
#include "model/profile/profile_json.hpp"
#include "model/summary/text_summary.hpp"

namespace irf::model {

using common::printable;
using common::utf8_length;
using common::utf8_prefix;
using common::utf8_sequence_length;
using common::valid_utf8;
namespace test_text_safety {
namespace {

const std::string s_fffd = "\xEF\xBF\xBD";

TEST(TextSafety, ValidUtf8IsKept) {
    // "é" (C3 A9), "€" (E2 82 AC), "😀" (F0 9F 98 80): 2-, 3- and 4-byte sequences.
    const std::string text = "k\xC3\xA9_\xE2\x82\xAC_\xF0\x9F\x98\x80";
    EXPECT_EQ(valid_utf8(text), text);
    EXPECT_EQ(printable(text), text);
    EXPECT_EQ(utf8_length(text), 6u); // k é _ € _ 😀
}

TEST(TextSafety, InvalidBytesAreReplacedOneEach) {
    // A stray continuation byte, a Latin-1 byte, an overlong "/" (C0 AF), a surrogate (ED A0 80)
    // and a sequence cut at the end (E2 82).
    EXPECT_EQ(valid_utf8("a\x80"
                         "b"),
              "a" + s_fffd + "b");
    EXPECT_EQ(valid_utf8("caf\xE9"), "caf" + s_fffd);
    EXPECT_EQ(valid_utf8("\xC0\xAF"), s_fffd + s_fffd);
    EXPECT_EQ(valid_utf8("\xED\xA0\x80"), s_fffd + s_fffd + s_fffd);
    EXPECT_EQ(valid_utf8("x\xE2\x82"), "x" + s_fffd + s_fffd);
    EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), s_fffd + s_fffd + s_fffd + s_fffd); // > U+10FFFF
}

TEST(TextSafety, PrintableEscapesControlsAndInvalidBytes) {
    EXPECT_EQ(printable("x\n[irf] forged"), "x\\n[irf] forged");
    EXPECT_EQ(printable("\x1b]0;title\x07"), "\\x1B]0;title\\x07"); // OSC ... BEL
    EXPECT_EQ(printable("a\rb\tc\x7f"), "a\\rb\\tc\\x7F");
    EXPECT_EQ(printable("\xC2\x9B"
                        "31m"),
              "\\u009B31m"); // C1 CSI
    EXPECT_EQ(printable("abc\xE2\x80\xAE"
                        "cba"),
              "abc\\u202Ecba"); // right-to-left override
    EXPECT_EQ(printable("caf\xE9"), "caf\\xE9");
    EXPECT_EQ(printable("plain \\d+ text"), "plain \\d+ text");
}

TEST(TextSafety, PrefixNeverCutsASequence) {
    const std::string euros = "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"; // three "€"
    EXPECT_EQ(utf8_prefix(euros, 2), "\xE2\x82\xAC\xE2\x82\xAC");
    EXPECT_EQ(utf8_prefix(euros, 10), euros);
    EXPECT_EQ(utf8_prefix("ab\xFF"
                          "cd",
                          3),
              "ab\xFF");
    EXPECT_EQ(utf8_length(euros), 3u);
}

Profile hostile_profile() {
    Profile p;
    p.app = "app\xFF\xFE";
    p.argv = {"./app\xC3", "--x=\x80"};
    p.config["IRF_OUTPUT"] = "out\xE9";
    KernelRecord k;
    k.name = std::string(36, 'k') + "\xE2\x82\xAC\xE2\x82\xAC" + "\x1b[2J\xFF";
    k.launches = 1;
    k.time_ns = TimeStats{100, 100, 100, 100};
    p.kernels.push_back(k);
    p.warnings.push_back("IRF_KERNELS=x\n[irf] forged: bad");
    return p;
}

TEST(TextSafety, ProfileWithInvalidUtf8IsWrittenWithReplacements) {
    std::string text;
    ASSERT_NO_THROW(text = dump_profile(hostile_profile())); // threw type_error.316 before
    const auto written = nlohmann::json::parse(text);
    EXPECT_EQ(written["app"], "app" + s_fffd + s_fffd);
    EXPECT_EQ(written["argv"][0], "./app" + s_fffd);
    EXPECT_EQ(written["config"]["IRF_OUTPUT"], "out" + s_fffd);
}

TEST(TextSafety, SummaryEscapesNamesAndWarningsAndCutsWholeCharacters) {
    const std::string summary = text_summary(hostile_profile());
    EXPECT_EQ(summary.find('\x1b'), std::string::npos);
    EXPECT_EQ(summary.find("\n[irf] forged"), std::string::npos);
    EXPECT_NE(summary.find("IRF_KERNELS=x\\n[irf] forged"), std::string::npos);
    EXPECT_NE(summary.find("app\\xFF\\xFE"), std::string::npos);
    EXPECT_EQ(valid_utf8(summary), summary) << "a cut inside a UTF-8 sequence";
}

TEST(TextSafety, SummaryFoldsIdenticalWarningsWithACount) {
    Profile p;
    p.warnings = {"rank 0: no kernel matched", "late", "rank 0: no kernel matched",
                  "rank 0: no kernel matched"};
    const std::string summary = text_summary(p);
    EXPECT_NE(summary.find("\nWarnings:\n  rank 0: no kernel matched (x3)\n  late\n"),
              std::string::npos)
        << summary;
}

} // namespace
} // namespace test_text_safety
} // namespace irf::model
