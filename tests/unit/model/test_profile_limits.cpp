// SPDX-License-Identifier: Apache-2.0
// Bounded profile reading (issue #39 item 8): a 98 MB profile with 50 million array elements
// ran irf-report out of memory under a 1.5 GB limit and aborted (std::bad_alloc thrown from a
// destructor). Values and nesting are counted while parsing and refused past the limits, which
// follow the file's size (issue #34: a legitimate 4,096-rank job holds millions); negative
// durations are refused as well.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/profile/profile_json.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_profile_limits {
namespace {

class ProfileLimits : public TempDirTest {
protected:
    std::string error_of(const std::string& text, const model::JsonLimits& limits = {}) const {
        const auto path = (m_tmp / "p.json").string();
        std::ofstream(path) << text;
        try {
            (void)model::load_profile(path, limits);
        } catch (const model::FormatError& e) {
            return e.what();
        }
        return "";
    }
};

TEST_F(ProfileLimits, DefaultsFollowTheFileSize) {
    const model::JsonLimits limits;
    EXPECT_EQ(limits.max_values, std::size_t{1} << 23);
    EXPECT_EQ(limits.bytes_per_value, 8u);
    EXPECT_EQ(limits.values_per_kernel, 64u);
    EXPECT_EQ(limits.max_depth, 64);
}

// A profile whose top-level `key` is an array of `count` copies of `item` (34 bytes and the key
// before the first item, 2 after the last).
std::string repeated(const std::string& key, const std::string& item, int count) {
    std::string text = "{\"schema\": \"irf.profile/v1\", \"" + key + "\": [" + item;
    for (int i = 1; i < count; ++i) {
        text += "," + item;
    }
    return text + "]}";
}

// `"warnings": [0,0,...]`: 2,001 values in 4,045 bytes, 2,003 with the document and its array.
std::string dense_warnings() {
    return repeated("warnings", "0", 2001);
}

TEST_F(ProfileLimits, TooManyValuesForTheBytesAreRefusedWhileParsing) {
    const std::string text = dense_warnings();
    ASSERT_EQ(text.size(), 4045u);
    // 1,000 + 4,045 / 8 = 1,505 values allowed; a dense file holds one per 2 bytes.
    const std::string error = error_of(text, model::JsonLimits{1000, 64});
    EXPECT_NE(error.find("p.json: more than 1505 JSON values in its 4045 bytes"), std::string::npos)
        << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST_F(ProfileLimits, ALargeLegitimateFileIsReadPastTheFloor) {
    // The same 2,003 values written as irf writes them (pretty, 2-space indent: 7 bytes a
    // value here) are past a floor of 1,000 but within 1,000 + bytes / 8: read.
    const std::string text = nlohmann::json::parse(dense_warnings()).dump(2);
    ASSERT_GT(text.size(), 8u * 1003u);
    const std::string error = error_of(text, model::JsonLimits{1000, 64});
    EXPECT_NE(error.find("p.json: kernels: missing"), std::string::npos) << error;
}

TEST_F(ProfileLimits, ManyTinyKernelsCountForTheirRecords) {
    // 200,000 kernels "{}" (3 bytes each, 600 kB): 200,000 x 65 = 13 million values against
    // 2^23 + 600,042 / 8 = 8,463,613: refused before 200,000 records (~1 kB each) are built.
    const std::string error = error_of(repeated("kernels", "{}", 200000));
    EXPECT_NE(error.find("p.json: more than 8463613 JSON values"), std::string::npos) << error;
}

TEST_F(ProfileLimits, ADenseBombIsRefusedWithOneLine) {
    // A floor of 2^20 keeps this fast (the default floor is tested above): 1.5 million zeros in
    // 3 MB against 2^20 + 3,000,043 / 8 = 1,423,581 values.
    const std::string text = repeated("warnings", "0", 1500000);
    ASSERT_EQ(text.size(), 3000043u);
    const std::string error = error_of(text, model::JsonLimits{std::size_t{1} << 20, 64});
    EXPECT_NE(error.find("p.json: more than 1423581 JSON values"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST_F(ProfileLimits, DeepNestingIsRefusedWhileParsing) {
    const std::string text = std::string(100, '[') + std::string(100, ']');
    const std::string error = error_of(text);
    EXPECT_NE(error.find("p.json: nested deeper than 64 levels"), std::string::npos) << error;
}

// Issue #39 item 11: merge summed a negative time_ns.total into the job's totals.
TEST_F(ProfileLimits, NegativeDurationsAreRefused) {
    auto doc = nlohmann::json::parse(
        read_file(std::string(IRF_TEST_DATA_DIR) + "/golden/tools_profile_before.json"));
    doc["kernels"][0]["time_ns"]["total"] = -1;
    const std::string error = error_of(doc.dump());
    EXPECT_NE(error.find("time_ns.total: a duration cannot be negative"), std::string::npos)
        << error;
}

// load_kernels (merge's and show's second read): only the kernels asked for, in full; the text
// after the last one is not read; lean load_profile leaves out counters and analysis.
TEST_F(ProfileLimits, LoadKernelsReadsOnlyThePositionsAskedFor) {
    auto doc = nlohmann::json::parse(
        read_file(std::string(IRF_TEST_DATA_DIR) + "/golden/tools_profile_before.json"));
    doc["kernels"][3]["launches"] = "bad";
    const auto path = (m_tmp / "k.json").string();
    std::ofstream(path) << doc.dump(1);
    const std::vector<model::KernelRecord> two = model::load_kernels(path, {0, 2});
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].name, doc["kernels"][0]["name"].get<std::string>());
    EXPECT_EQ(two[1].name, doc["kernels"][2]["name"].get<std::string>());
    EXPECT_EQ(two[1].counters.size(), doc["kernels"][2]["counters"].size());
    EXPECT_TRUE(two[1].analysis.has_value());
    try {
        (void)model::load_kernels(path, {3});
        FAIL() << "kernels[3].launches was accepted";
    } catch (const model::FormatError& e) {
        EXPECT_NE(std::string(e.what()).find("k.json: kernels[3].launches: expected a number"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW((void)model::load_kernels(path, {9}), model::FormatError);
}

TEST_F(ProfileLimits, LeanReadLeavesOutCountersAndAnalysisOnly) {
    const std::string path = std::string(IRF_TEST_DATA_DIR) + "/golden/tools_profile_before.json";
    model::Profile stripped = model::load_profile(path);
    for (model::KernelRecord& k : stripped.kernels) {
        ASSERT_FALSE(k.counters.empty() && !k.analysis);
        k.counters.clear();
        k.analysis.reset();
    }
    EXPECT_EQ(model::dump_profile(model::load_profile(path, {}, true)),
              model::dump_profile(stripped));
}

} // namespace
} // namespace test_profile_limits
} // namespace irf::test
