// SPDX-License-Identifier: Apache-2.0
// load_ceilings_file remembers each parse by (path, text) for the whole process: a second load
// must give what the first gave, a file changed on disk its new values, and no caller may change
// what a later caller gets.
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "config/ceilings_yaml.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::config {
namespace test_ceilings_cache {
namespace {

/// The minimal ceilings file with `sms` SMs at 1,000 MHz (warp GIPS: sms x 4 schedulers x 1).
std::string ceilings_cache_text(int sms, const std::string& name = "Cache GPU") {
    return "schema: irf.ceilings/v1\n"
           "gpu:\n"
           "  name: \"" +
           name +
           "\"\n"
           "  cc: \"8.0\"\n"
           "  sms: " +
           std::to_string(sms) +
           "\n"
           "  boost_clock_mhz: 1000\n"
           "ceilings:\n"
           "  warp_gips:\n"
           "    value: " +
           std::to_string(sms * 4) +
           "\n"
           "    unit: warp-GIPS\n"
           "    provenance: derived\n"
           "    method: \"SMs x 4 x 1000 MHz\"\n";
}

std::string ceilings_cache_error(const std::string& path) {
    try {
        (void)load_ceilings_file(path);
    } catch (const CeilingsError& e) {
        return e.what();
    }
    return "";
}

class CeilingsCache : public test::TempDirTest {};

TEST_F(CeilingsCache, TheSameFileLoadsTheSameTwice) {
    const std::string path = std::string(IRF_TEST_DATA_DIR) + "/ceilings/good/full.yaml";
    const Ceilings first = load_ceilings_file(path);
    const Ceilings second = load_ceilings_file(path);
    // The uncached parse of the same text is the reference.
    const Ceilings reference = parse_ceilings_yaml(test::read_file(path), path);
    EXPECT_EQ(to_yaml(first), to_yaml(reference));
    EXPECT_EQ(to_yaml(second), to_yaml(reference));
    EXPECT_EQ(second.source, path);
    EXPECT_EQ(second.gpu.key, "test-gpu");
    ASSERT_TRUE(second.hbm_gbs.has_value());
    EXPECT_DOUBLE_EQ(second.hbm_gbs->value, 3352.0);
}

TEST_F(CeilingsCache, AFileChangedOnDiskGivesItsNewValues) {
    const std::string path = (m_tmp / "gpu.yaml").string();
    test::write_file(path, ceilings_cache_text(10));
    EXPECT_EQ(load_ceilings_file(path).gpu.sms, 10);
    test::write_file(path, ceilings_cache_text(20));
    const Ceilings changed = load_ceilings_file(path);
    EXPECT_EQ(changed.gpu.sms, 20);
    EXPECT_DOUBLE_EQ(changed.warp_gips.value, 80.0); // 20 x 4 x 1,000 MHz
    // Back to the first text: its values again.
    test::write_file(path, ceilings_cache_text(10));
    const Ceilings back = load_ceilings_file(path);
    EXPECT_EQ(back.gpu.sms, 10);
    EXPECT_DOUBLE_EQ(back.warp_gips.value, 40.0);
}

TEST_F(CeilingsCache, TheSameTextAtTwoPathsNamesEachPath) {
    const std::string a = (m_tmp / "a.yaml").string();
    const std::string b = (m_tmp / "b.yaml").string();
    test::write_file(a, ceilings_cache_text(12));
    test::write_file(b, ceilings_cache_text(12));
    EXPECT_EQ(load_ceilings_file(a).source, a);
    EXPECT_EQ(load_ceilings_file(b).source, b);
    EXPECT_EQ(load_ceilings_file(a).source, a);
}

TEST_F(CeilingsCache, ACallerChangingItsCopyChangesNoLaterLoad) {
    const std::string path = (m_tmp / "gpu.yaml").string();
    test::write_file(path, ceilings_cache_text(14));
    Ceilings mine = load_ceilings_file(path);
    mine.gpu.sms = 99;
    mine.warp_gips.value = 1;
    mine.details.clear();
    const Ceilings later = load_ceilings_file(path);
    EXPECT_EQ(later.gpu.sms, 14);
    EXPECT_DOUBLE_EQ(later.warp_gips.value, 56.0); // 14 x 4 x 1,000 MHz
}

TEST_F(CeilingsCache, AnInvalidFileFailsEveryTimeUntilFixed) {
    const std::string path = (m_tmp / "gpu.yaml").string();
    std::string bad = ceilings_cache_text(10);
    bad.replace(bad.find("value: 40"), 9, "value: 41"); // not 10 x 4 x 1,000 MHz
    test::write_file(path, bad);
    const std::string error = ceilings_cache_error(path);
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_EQ(ceilings_cache_error(path), error);
    test::write_file(path, ceilings_cache_text(10));
    EXPECT_EQ(ceilings_cache_error(path), "");
}

// The cache holds 64 entries and then starts again: past that, every file still reads right.
TEST_F(CeilingsCache, MoreFilesThanTheCacheHoldsStillReadRight) {
    std::vector<std::string> paths;
    for (int i = 1; i <= 70; ++i) {
        paths.push_back((m_tmp / ("gpu" + std::to_string(i) + ".yaml")).string());
        test::write_file(paths.back(), ceilings_cache_text(i, "Cache GPU " + std::to_string(i)));
    }
    for (int round = 0; round < 2; ++round) {
        for (int i = 1; i <= 70; ++i) {
            const Ceilings c = load_ceilings_file(paths[static_cast<std::size_t>(i - 1)]);
            ASSERT_EQ(c.gpu.sms, i);
            ASSERT_EQ(c.gpu.name, "Cache GPU " + std::to_string(i));
        }
    }
}

// Loads on several threads at once (the cache is skipped when its lock is held) agree.
TEST_F(CeilingsCache, ConcurrentLoadsAgree) {
    const std::string path = std::string(IRF_TEST_DATA_DIR) + "/ceilings/good/full.yaml";
    const std::string reference = to_yaml(parse_ceilings_yaml(test::read_file(path), path));
    std::vector<int> wrong(4, 0);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < wrong.size(); ++t) {
        threads.emplace_back([&path, &reference, &wrong, t] {
            for (int i = 0; i < 25; ++i) {
                wrong[t] += to_yaml(load_ceilings_file(path)) != reference ? 1 : 0;
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    EXPECT_EQ(wrong, std::vector<int>(4, 0));
}

} // namespace
} // namespace test_ceilings_cache
} // namespace irf::config
