// SPDX-License-Identifier: Apache-2.0
// Bounded profile reading (issue #39 item 8): a 98 MB profile with 50 million array elements
// ran irf-report out of memory under a 1.5 GB limit and aborted (std::bad_alloc thrown from a
// destructor). Values and nesting are now counted while parsing and refused past the limits;
// negative durations are refused as well.
#include <chrono>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/profile_json.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
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

TEST_F(ProfileLimits, TooManyValuesAreRefusedWhileParsing) {
    // The default limit is 2^23 values; a lower one keeps this test fast.
    EXPECT_EQ(model::JsonLimits{}.max_values, std::size_t{1} << 23);
    std::string text = "{\"schema\": \"irf.profile/v1\", \"warnings\": [0";
    for (int i = 0; i < 2000; ++i) {
        text += ",0";
    }
    text += "]}";
    const std::string error = error_of(text, model::JsonLimits{1000, 64});
    EXPECT_NE(error.find("p.json: more than 1000 JSON values"), std::string::npos) << error;
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

} // namespace
} // namespace irf::test
