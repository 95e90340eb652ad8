// SPDX-License-Identifier: Apache-2.0
// The CUPTI backend on a machine without a driver or GPU: start() fails with one clear line,
// never crashes, and every other call stays safe.
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/cupti/cupti_backend.hpp"

namespace irf::intercept {
namespace test_metrics_backend_nogpu {
namespace {

class RecordingSink final : public LaunchSink {
public:
    LaunchDecision on_launch(const LaunchEvent&) noexcept override {
        ++launches;
        return LaunchDecision::profile;
    }
    void on_counters(const CounterSample&) noexcept override { ++samples; }
    void on_duration(const DurationRecord&) noexcept override { ++durations; }
    void on_warning(const std::string& message) noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        warnings.push_back(message);
    }
    int launches = 0, samples = 0, durations = 0;
    std::mutex mutex;
    std::vector<std::string> warnings;
};

TEST(CuptiBackendNoGpu, StartFailsWithOneClearLine) {
    auto backend = make_cupti_backend(CuptiOptions{});
    ASSERT_NE(backend, nullptr);
    EXPECT_EQ(backend->name(), "cupti");
    RecordingSink sink;
    EXPECT_FALSE(backend->start(sink));
    ASSERT_EQ(sink.warnings.size(), 1u);
    std::cout << "[irf] " << sink.warnings[0] << "\n"; // the line a user would see
    EXPECT_NE(sink.warnings[0].find("CUPTI"), std::string::npos) << sink.warnings[0];
    backend->flush();
    backend->stop();
    backend->stop(); // idempotent
    EXPECT_EQ(backend->passes(), 0);
    EXPECT_TRUE(backend->gpu_info().name.empty());
    EXPECT_EQ(sink.launches + sink.samples + sink.durations, 0);
    EXPECT_EQ(sink.warnings.size(), 1u); // nothing after stop()
}

} // namespace
} // namespace test_metrics_backend_nogpu
} // namespace irf::intercept
