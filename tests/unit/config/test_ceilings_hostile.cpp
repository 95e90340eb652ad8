// SPDX-License-Identifier: Apache-2.0
// Hostile ceilings YAML under the 4 MiB limit (issue 22 items 7 and 8): alias bombs are refused
// before any expansion, key checks are linear, FIFOs are refused without blocking.
#include <pthread.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "config/ceilings_yaml.hpp"
#include "config/name_rules.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::config {
namespace test_ceilings_hostile {
namespace {

const char* const s_head = "schema: irf.ceilings/v1\n"
                           "gpu:\n"
                           "  name: \"Test GPU\"\n"
                           "  cc: \"8.0\"\n"
                           "  sms: 10\n"
                           "  boost_clock_mhz: 1000\n";
const char* const s_ceilings = "ceilings:\n"
                               "  warp_gips: {value: 40, unit: warp-GIPS, provenance: derived, "
                               "method: \"10 SMs x 4 x 1000 MHz\"}\n";

std::string error_of_text(const std::string& text) {
    try {
        (void)parse_ceilings_yaml(text, "bomb.yaml");
    } catch (const CeilingsError& e) {
        return e.what();
    }
    return "";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(CeilingsHostile, AliasBombIsRefusedBeforeExpansion) {
    // 100k aliases of a 1 MB string (3 MB of text): expanded, 100 GB (std::bad_alloc before).
    std::string text =
        std::string(s_head) + "  note: &big \"" + std::string(1 << 20, 'x') + "\"\n  aliases: [";
    for (int i = 0; i < 100000; ++i) {
        text += i ? ",*big" : "*big";
    }
    text += "]\n" + std::string(s_ceilings);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(error_of_text(text), "bomb.yaml:8: (document): YAML aliases (*name) are not allowed "
                                   "in ceilings files; write the value out");
    EXPECT_LT(seconds_since(start), 20.0);
}

TEST(CeilingsHostile, AnAnchorWithoutAliasIsHarmless) {
    const std::string text = std::string(s_head) + "  aliases: &a [\"T\"]\n" + s_ceilings;
    EXPECT_EQ(parse_ceilings_yaml(text, "anchor.yaml").gpu.aliases.size(), 1u);
}

TEST(CeilingsHostile, ManyKeysAreCheckedInLinearTime) {
    // 150k detail keys and a duplicate at the end: with a list of seen keys, 1.1e10 string
    // comparisons (350k keys took 220 s); with a hash set, one pass.
    std::string text = std::string(s_ceilings) + "  details:\n";
    for (int i = 0; i < 150000; ++i) {
        text += "    k" + std::to_string(i) + ": 0\n";
    }
    text += "    k0: 0\n";
    const auto start = std::chrono::steady_clock::now();
    const std::string error = error_of_text(std::string(s_head) + text);
    EXPECT_NE(error.find("ceilings.details.k0: duplicate key"), std::string::npos) << error;
    EXPECT_LT(seconds_since(start), 25.0);
}

TEST(CeilingsHostile, FifoIsRefusedWithoutBlocking) {
    test::TempDir dir;
    const std::filesystem::path fifo = dir.path() / "fifo.yaml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    try {
        (void)load_ceilings_file(fifo.string()); // blocked in open(2) for a writer before
        FAIL() << "a FIFO was accepted";
    } catch (const CeilingsError& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
}

// The parse of `text` on a 256 KiB thread stack (a profiled application's worker thread);
// returns the error.
std::string error_on_small_stack(const std::string& text) {
    struct Probe {
        const std::string* text;
        std::string error;
    } probe{&text, "not run"};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t thread;
    const auto body = [](void* arg) -> void* {
        auto* p = static_cast<Probe*>(arg);
        p->error = error_of_text(*p->text);
        return nullptr;
    };
    EXPECT_EQ(pthread_create(&thread, &attr, body, &probe), 0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    return probe.error;
}

// std::regex recursed once per character: a 50,000-character gpu.key or details key overflowed
// the stack (SIGSEGV of the application through IRF_CEILINGS, of irf run and irf-report).
TEST(CeilingsHostile, LongKeysAreRefusedWithoutDeepRecursion) {
    const std::string long_name(50000, 'a');
    const std::string key_error =
        error_on_small_stack(std::string(s_head) + "  key: " + long_name + "\n" + s_ceilings);
    EXPECT_NE(key_error.find("gpu.key: 'aaaa"), std::string::npos) << key_error;
    EXPECT_NE(key_error.find("(50000 bytes) must be lower-case"), std::string::npos);
    EXPECT_LT(key_error.size(), 400u);
    const std::string detail_error = error_on_small_stack(
        std::string(s_head) + s_ceilings + "  details:\n    ? " + long_name + "\n    : 0\n");
    EXPECT_NE(detail_error.find("key longer than 64 characters"), std::string::npos)
        << detail_error.substr(0, 300);
    EXPECT_LT(detail_error.size(), 400u);
    const std::string count_error = error_on_small_stack(
        std::string(s_head) + "  l2_bytes: " + std::string(50000, '7') + "\n" + s_ceilings);
    EXPECT_NE(count_error.find("(50000 bytes) must be a whole number"), std::string::npos)
        << count_error.substr(0, 300);
}

TEST(CeilingsHostile, NameShapesAreCheckedWithoutRegex) {
    EXPECT_TRUE(rules::is_gpu_key("h100-sxm5.v2"));
    EXPECT_FALSE(rules::is_gpu_key("-h100"));
    EXPECT_FALSE(rules::is_gpu_key(std::string(65, 'a')));
    EXPECT_TRUE(rules::is_detail_name("l1_hit_gbs"));
    EXPECT_FALSE(rules::is_detail_name("1x"));
    EXPECT_TRUE(rules::is_compute_capability("10.0"));
    EXPECT_FALSE(rules::is_compute_capability("100.0"));
    EXPECT_FALSE(rules::is_compute_capability("9."));
    EXPECT_TRUE(rules::is_iso_date("2026-11"));
    EXPECT_TRUE(rules::is_iso_date("2026-11-25"));
    EXPECT_FALSE(rules::is_iso_date("2026-11-2"));
    EXPECT_FALSE(rules::is_iso_date("2026-1125"));
}

} // namespace
} // namespace test_ceilings_hostile
} // namespace irf::config
