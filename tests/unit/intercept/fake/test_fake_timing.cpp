// SPDX-License-Identifier: Apache-2.0
// IRF_TIMING=sampled (issue 55 item 5) through the fake backend into the real collector: the
// backend delivers every record, as CUPTI does; the untimed launches' records are dropped, their
// launches counted, and the kernel's total estimated with its error.
#include <cmath>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/fake/fake_backend.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::intercept {
namespace test_fake_timing {
namespace {

class FakeTiming : public test::TempDirTest {
protected:
    /// Plays 12 launches of _Z1kv (100, 300 ns in turn, no samples) under IRF_TIMING `timing`.
    model::Profile play(config::TimingMode timing, std::uint64_t first, std::uint64_t every) {
        test::write_file(m_tmp / "script.json",
                         R"({"launches": [{"kernel": "_Z1kv", "function": 1, "repeat": 12,
                             "duration_ns": [100, 300]}]})");
        config::Config c;
        c.callstack = 0;
        c.samples = 0;
        c.timing = timing;
        c.timing_first = first;
        c.timing_every = every;
        Collector collector{c};
        std::unique_ptr<Backend> backend = make_fake_backend((m_tmp / "script.json").string());
        EXPECT_TRUE(backend->start(collector));
        collector.stop_recording();
        backend->flush();
        backend->stop();
        m_skipped = collector.stats().skipped_records;
        model::Profile p;
        collector.fill_profile(p);
        return p;
    }
    std::uint64_t m_skipped = 0;
};

TEST_F(FakeTiming, UntimedLaunchesAreCountedAndEstimatedFromTheTimedOnes) {
    // K = 2, N = 3: launches 0, 1, 2, 5, 8, 11 timed (from 0). Launch 0 (100) is the first;
    // timed after it: 300 100 300 100 300, mean 220, squared deviations 3 x 80^2 + 2 x 120^2 =
    // 48000, s^2 = 12000. Untimed 3, 4, 6, 7, 9, 10: 6 x 220 = 1320 ns, error
    // sqrt(12000 x 6 x (1 + 6 / 5)) = sqrt(158400) = 397.99 ns (truly 1200 ns). Total 100 + 1100
    // + 1320 = 2520 ns.
    const model::Profile p = play(config::TimingMode::sampled, 2, 3);
    ASSERT_EQ(p.kernels.size(), 1u);
    const model::KernelRecord& k = p.kernels[0];
    EXPECT_EQ(k.launches, 12u);
    EXPECT_EQ(p.coverage.launches, 12u);
    EXPECT_EQ(k.estimated_launches, 6u);
    EXPECT_EQ(m_skipped, 6u);
    EXPECT_DOUBLE_EQ(k.time_ns.total, 2520);
    ASSERT_TRUE(k.estimate_error_ns.has_value());
    EXPECT_NEAR(*k.estimate_error_ns, std::sqrt(158400.0), 1e-6);
    EXPECT_NEAR(k.time_ns.total, 2400, *k.estimate_error_ns); // the truth, within one error
    EXPECT_EQ(p.coverage.lost_durations, 0u);
    for (const std::string& w : p.warnings) {
        EXPECT_EQ(w.find("no intercepted launch"), std::string::npos) << w;
    }
}

TEST_F(FakeTiming, AllTimesEveryLaunch) {
    const model::Profile p = play(config::TimingMode::all, 2, 3);
    const model::KernelRecord& k = p.kernels.at(0);
    EXPECT_EQ(k.launches, 12u);
    EXPECT_EQ(k.estimated_launches, 0u);
    EXPECT_EQ(m_skipped, 0u);
    EXPECT_DOUBLE_EQ(k.time_ns.total, 6 * 100 + 6 * 300);
}

} // namespace
} // namespace test_fake_timing
} // namespace irf::intercept
