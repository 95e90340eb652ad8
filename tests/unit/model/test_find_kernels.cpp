// SPDX-License-Identifier: Apache-2.0
// find_kernels (where each element of `kernels` lies, from a scan of strings and brackets) and
// the read it enables: a profile's kernels parsed on several threads must give the profile the
// one-thread read gives, and where anything is wrong the same error, since the one-thread read
// then runs to report it.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/profile/profile_json.hpp"
#include "model/profile/profile_json_stream.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_find_kernels {
namespace {

using Spans = std::vector<std::pair<std::size_t, std::size_t>>;

TEST(FindKernels, OffsetsOfASmallProfile) {
    // 0 '{', 1-9 "kernels", 10 ':', 11 '[', 12-18 {"a":1}, 19 ',', 20-29 {"b":"}]"}, 30 ']'.
    const std::string text = R"({"kernels":[{"a":1},{"b":"}]"}]})";
    const auto layout = model::find_kernels(text);
    ASSERT_TRUE(layout);
    EXPECT_EQ(layout->open, 11u);
    EXPECT_EQ(layout->close, 30u);
    EXPECT_EQ(layout->elements, (Spans{{12, 19}, {20, 30}}));
}

TEST(FindKernels, StringsHideBracketsQuotesAndTheKeyName) {
    // The value "kernels" at 5-13 is no key; the key is at 16-24, its '[' at 28. The first
    // element "x\"]" is at 30-35 (its escaped quote does not end it), the second {"q":"\\"} at
    // 39-48 (its escaped backslash does); spaces around both are trimmed; ']' at 50.
    const std::string text = R"({"k":"kernels", "kernels" : [ "x\"]" , {"q":"\\"} ] })";
    const auto layout = model::find_kernels(text);
    ASSERT_TRUE(layout);
    EXPECT_EQ(layout->open, 28u);
    EXPECT_EQ(layout->close, 50u);
    EXPECT_EQ(layout->elements, (Spans{{30, 36}, {39, 49}}));
    EXPECT_EQ(text.substr(30, 6), R"("x\"]")");
    EXPECT_EQ(text.substr(39, 10), R"({"q":"\\"})");
}

TEST(FindKernels, AnEmptyArrayHasNoElements) {
    const auto tight = model::find_kernels(R"({"kernels":[]})");
    ASSERT_TRUE(tight);
    EXPECT_EQ(tight->open, 11u);
    EXPECT_EQ(tight->close, 12u);
    EXPECT_TRUE(tight->elements.empty());
    const auto spaced = model::find_kernels("{\"a\":[1,2], \"kernels\": [ \n ], \"b\":{}}");
    ASSERT_TRUE(spaced);
    EXPECT_EQ(spaced->open, 23u);
    EXPECT_EQ(spaced->close, 27u);
    EXPECT_TRUE(spaced->elements.empty());
}

// Its contract: nullopt unless the root is an object with one `kernels` key, written without
// escapes, whose value is an array that closes.
TEST(FindKernels, RefusesWhatItCannotLocate) {
    const std::vector<std::string> refused = {
        "",
        "   ",
        "[1]",
        R"("kernels")",
        R"({"a":[]})",
        R"({"a":{"kernels":[]}})",        // not at the root
        R"({"kernels":[],"kernels":[]})", // repeated: the last one would win
        R"({"kern\u0065ls":[]})",         // escaped: the same key
        R"({"a\"b":1,"kernels":[{}]})",   // any escaped key at the root
        R"({"kernels":{}})",              // not an array
        R"({"kernels":1})",
        R"({"kernels":[{"a":1})",             // never closes
        R"({"kernels":[{"a":"]}"}, {"b":"x)", // a string that never ends
        R"({"kernels")",
    };
    for (const std::string& text : refused) {
        EXPECT_FALSE(model::find_kernels(text)) << text;
    }
}

// Only strings and brackets are scanned: a trailing comma still gives a layout (an empty last
// element), which the parse of each part then refuses.
TEST(FindKernels, OtherFaultsAreLeftToTheParse) {
    const auto layout = model::find_kernels(R"({"kernels":[1,]})");
    ASSERT_TRUE(layout);
    EXPECT_EQ(layout->elements, (Spans{{12, 13}, {14, 14}}));
}

/// The golden profile with `count` kernels (its 6, over and over, each renamed by its index).
nlohmann::json find_kernels_many(std::size_t count) {
    const auto golden = nlohmann::json::parse(
        read_file(std::string(IRF_TEST_DATA_DIR) + "/golden/tools_profile_before.json"));
    nlohmann::json doc = golden;
    doc["kernels"] = nlohmann::json::array();
    for (std::size_t i = 0; i < count; ++i) {
        nlohmann::json k = golden["kernels"][i % golden["kernels"].size()];
        k["name"] = k["name"].get<std::string>() + " #" + std::to_string(i);
        doc["kernels"].push_back(std::move(k));
    }
    doc["coverage"]["kernels"] = count;
    return doc;
}

class FindKernelsThreads : public TempDirTest {
protected:
    // 600 kernels: past the 512 at which a second thread starts.
    static constexpr std::size_t k_count = 600;

    std::string write(const std::string& text) const {
        const auto path = (m_tmp / "many.json").string();
        write_file(path, text);
        return path;
    }

    static std::string error_of(const std::string& path, unsigned threads, bool lean = false,
                                const model::JsonLimits& limits = {}) {
        try {
            (void)model::load_profile(path, limits, lean, threads);
        } catch (const model::FormatError& e) {
            return e.what();
        }
        return "";
    }

    static std::string visited_error(const std::string& path, unsigned threads,
                                     const model::JsonLimits& limits) {
        bool visited = true;
        try {
            const auto start = [](const model::Profile&) {
                return [](model::KernelRecord& k) { k.counters.clear(); };
            };
            (void)model::load_profile_visited(path, start, visited, threads, limits);
        } catch (const model::FormatError& e) {
            EXPECT_FALSE(visited);
            return e.what();
        }
        return "";
    }

    /// Checks that the read of `text` fails with the same message on 4 threads as on one, and
    /// returns it.
    std::string same_error(const std::string& text, bool lean = false,
                           const model::JsonLimits& limits = {}) const {
        const std::string path = write(text);
        const std::string one = error_of(path, 1, lean, limits);
        EXPECT_FALSE(one.empty());
        EXPECT_EQ(error_of(path, 4, lean, limits), one);
        if (!lean) { // the visited read (whose text is released as read) refuses it the same way
            EXPECT_EQ(visited_error(path, 1, limits), one);
            EXPECT_EQ(visited_error(path, 4, limits), one);
        }
        return one;
    }
};

TEST_F(FindKernelsThreads, SeveralThreadsReadTheSameProfile) {
    const std::string text = find_kernels_many(k_count).dump(1);
    const auto layout = model::find_kernels(text);
    ASSERT_TRUE(layout);
    ASSERT_EQ(layout->elements.size(), k_count);
    const std::string path = write(text);
    const std::string one = model::dump_profile(model::load_profile(path, {}, false, 1));
    EXPECT_EQ(model::dump_profile(model::load_profile(path, {}, false, 4)), one);
    EXPECT_EQ(model::dump_profile(model::load_profile(path, {}, false, 3)), one);
    EXPECT_NE(one.find("#599"), std::string::npos);

    // Lean on 4 threads: the full profile without counters and analysis.
    model::Profile stripped = model::load_profile(path, {}, false, 1);
    for (model::KernelRecord& k : stripped.kernels) {
        k.counters.clear();
        k.analysis.reset();
    }
    EXPECT_EQ(model::dump_profile(model::load_profile(path, {}, true, 4)),
              model::dump_profile(stripped));
}

TEST_F(FindKernelsThreads, AVisitedReadGivesEachKernelToTheVisitorOfItsHeader) {
    const std::string path = write(find_kernels_many(k_count).dump(1));
    // What the visitor does (here: the name with the header's pid, counters dropped) is what the
    // plain read gives with it done afterwards, on any number of threads.
    model::Profile expected = model::load_profile(path);
    for (model::KernelRecord& k : expected.kernels) {
        k.name += " pid " + std::to_string(expected.pid);
        k.counters.clear();
    }
    const model::VisitorStart start = [](const model::Profile& header) {
        EXPECT_TRUE(header.kernels.empty());
        const std::string pid = std::to_string(header.pid);
        return [pid](model::KernelRecord& k) {
            k.name += " pid " + pid;
            k.counters.clear();
        };
    };
    for (const unsigned threads : {1u, 4u}) {
        bool visited = false;
        const model::Profile read = model::load_profile_visited(path, start, visited, threads);
        EXPECT_TRUE(visited);
        EXPECT_EQ(model::dump_profile(read), model::dump_profile(expected));
    }
    // No visitor: the plain read, none visited.
    bool visited = true;
    const model::Profile plain = model::load_profile_visited(
        path, [](const model::Profile&) { return model::KernelVisitor(); }, visited, 4);
    EXPECT_FALSE(visited);
    EXPECT_EQ(model::dump_profile(plain), model::dump_profile(model::load_profile(path)));
}

TEST_F(FindKernelsThreads, AWrongTypeInKernelNIsReportedAsOneThreadReportsIt) {
    nlohmann::json doc = find_kernels_many(k_count);
    doc["kernels"][437]["launches"] = "bad";
    const std::string error = same_error(doc.dump());
    EXPECT_NE(error.find("many.json: kernels[437].launches: expected a number"), std::string::npos)
        << error;
    // Lean reads still check the keys they keep.
    EXPECT_EQ(same_error(doc.dump(), true), error);
}

TEST_F(FindKernelsThreads, InvalidJsonInKernelNNamesTheByteOfTheWholeFile) {
    std::string text = find_kernels_many(k_count).dump();
    const auto layout = model::find_kernels(text);
    ASSERT_TRUE(layout);
    // "launches":10 becomes "launches":010 in kernel 300 (golden kernel 0; a leading zero).
    const auto [from, to] = layout->elements[300];
    const std::size_t at = text.find("\"launches\":", from);
    ASSERT_LT(at, to);
    text.insert(at + 11, "0");
    const std::string error = same_error(text);
    EXPECT_NE(error.find("many.json: not valid JSON: "), std::string::npos) << error;
    // The column is that of the whole file, not of the kernel's text alone: "0" at byte at + 11
    // is a number, then the literal "10" at at + 12 and at + 13 is unexpected (column at + 14).
    EXPECT_NE(error.find("column " + std::to_string(at + 14) + ":"), std::string::npos) << error;
    EXPECT_EQ(same_error(text, true), error);
}

TEST_F(FindKernelsThreads, AnErrorInACountersValueOfALeanReadIsStillReported) {
    std::string text = find_kernels_many(k_count).dump();
    const auto layout = model::find_kernels(text);
    ASSERT_TRUE(layout);
    const auto [from, to] = layout->elements[520];
    const std::size_t at = text.find("\"counters\":{", from);
    ASSERT_LT(at, to);
    text.insert(at + 12, "\"bad\":tru,"); // skim_json refuses it; so must the lean read
    const std::string error = same_error(text, true);
    EXPECT_NE(error.find("many.json: not valid JSON: "), std::string::npos) << error;
}

TEST_F(FindKernelsThreads, LimitsAndTrailingTextGiveTheSameErrors) {
    const std::string text = find_kernels_many(k_count).dump();
    // A floor of 1,000 and one more value per 1,000 bytes: 600 x 64 for the kernels' records
    // alone pass it, though each kernel is within it (the total is what is refused).
    const model::JsonLimits few{1000, 64, 1000};
    const std::string many = same_error(text, false, few);
    EXPECT_NE(many.find("JSON values in its"), std::string::npos) << many;
    // A lean read counts the values it lexes but does not build: the same limit, the same line.
    EXPECT_EQ(same_error(text, true, few), many);
    // Kernel 599 nested past the depth limit.
    nlohmann::json deep = find_kernels_many(k_count);
    nlohmann::json nest = 1;
    for (int i = 0; i < 70; ++i) {
        nest = nlohmann::json::array({nest});
    }
    deep["kernels"][599]["notes"] = nest;
    EXPECT_NE(same_error(deep.dump()).find("nested deeper than 64 levels"), std::string::npos);
    // Text after the root object.
    EXPECT_NE(same_error(text + " x").find("not valid JSON"), std::string::npos);
}

} // namespace
} // namespace test_find_kernels
} // namespace irf::test
