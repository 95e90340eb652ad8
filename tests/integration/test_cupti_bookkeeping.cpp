// SPDX-License-Identifier: Apache-2.0
// The CUPTI backend's launch bookkeeping into a real collector (issue 51): graph nodes' own ids
// and the launches after them; kernel timing that stops and resumes; stop() beside a thread
// stopped inside a sink call.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/nvtx_stack.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_bookkeeping {
namespace {

config::Config timing_only() {
    config::Config c;
    c.samples = 0;
    c.callstack = 0;
    return c;
}

/// The CUPTI backend on the fake platform, delivering to a collector with the real bounds.
struct CollectorRig {
    FakeScript script;
    Collector collector{timing_only()};
    CuptiBackend backend{CuptiOptions{}};
    explicit CollectorRig(std::uint64_t timing_check = k_timing_check) {
        backend.set_sampling_seam_for_test(
            quiet_seam({std::make_unique<FakePlatform>(script), std::chrono::milliseconds(2000),
                        std::chrono::seconds(60), timing_check}));
        backend.attach_sink_for_test(collector);
    }
    [[nodiscard]] model::Profile profile() {
        model::Profile p;
        collector.fill_profile(p);
        return p;
    }
};

TEST(CuptiBookkeeping, LaunchesAfterAGraphReplayKeepTheirDurations) {
    // A graph replay (two kernel nodes, timed from their records), then 300,000 launches whose
    // records come a CUPTI buffer (19,418 records of 216 bytes in 4 MiB) behind them, so the
    // collector sweeps twice (every 2^17 launches) with that many launches waiting. Before: the
    // nodes' ids (from 2^32) became the newest timed mark and each sweep took every waiting
    // launch for a lost one, about 39,000 of them, and their records for unmatched ones.
    CollectorRig rig;
    const auto replay = [&rig](std::uint32_t graph_launch) {
        KernelActivity node = kernel_record(graph_launch, 10, 4010);
        node.graph_id = 1;
        node.name = "_Z4nodev";
        rig.backend.on_kernel_record(node);
        rig.backend.on_kernel_record(node);
    };
    replay(1);
    constexpr std::uint32_t k_launches = 300000;
    constexpr std::uint32_t k_lag = 19418;
    for (std::uint32_t id = 2; id < 2 + k_launches; ++id) {
        FakeLaunch(id, "_Z1kv").run(rig.backend);
        if (id >= 2 + k_lag) {
            const std::uint64_t timed = id - k_lag;
            rig.backend.on_kernel_record(kernel_record(timed, 100, 1100));
        }
    }
    for (std::uint32_t id = 2 + k_launches - k_lag; id < 2 + k_launches; ++id) {
        rig.backend.on_kernel_record(kernel_record(id, 100, 1100));
    }
    const CollectorStats s = rig.collector.stats();
    EXPECT_EQ(s.launches, k_launches + 2);
    EXPECT_EQ(s.lost_durations, 0u);
    EXPECT_EQ(s.unmatched_durations, 0u);
    const model::Profile p = rig.profile();
    ASSERT_EQ(p.kernels.size(), 2u);
    EXPECT_EQ(p.kernels.at(0).name, "k()");
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, k_launches * 1000.0);
    EXPECT_DOUBLE_EQ(p.kernels.at(1).time_ns.total, 2 * 4000.0);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
}

// A graph node whose launch's region is not known (forgotten past the bound, or a graph
// launched from the device) is delivered by whichever thread flushes CUPTI's buffers, here one
// inside an NVTX range of its own: the node runs at the top level, not in that thread's range
// (issue 51 A10, the review's L2).
TEST(CuptiBookkeeping, AGraphNodeOfAnUnknownRegionRunsAtTheTopLevel) {
    CollectorRig rig;
    nvtx::set_stack({"flushing_thread"});
    KernelActivity node = kernel_record(7, 10, 4010);
    node.graph_id = 1;
    node.name = "_Z4nodev";
    rig.backend.on_kernel_record(node);
    nvtx::set_stack({});
    const model::Profile p = rig.profile();
    ASSERT_EQ(p.kernels.size(), 1u);
    const auto& regions = p.kernels.at(0).regions; // the top level alone lists none
    EXPECT_TRUE(std::none_of(regions.begin(), regions.end(), [](const model::KernelRegion& r) {
        return r.path == "flushing_thread";
    }));
}

bool warned(const model::Profile& p, const std::string& text) {
    return std::any_of(p.warnings.begin(), p.warnings.end(),
                       [&text](const std::string& w) { return w.find(text) != std::string::npos; });
}

TEST(CuptiBookkeeping, TimingResumesWhenRecordsComeAgain) {
    // Checks every 1,024 launches: no record comes, so timing stops at the second silent check
    // (launch 2,048), and launches 2,048-3,000 are counted only. Then CUPTI hands over
    // every record (the other client let go, or it held its buffers that long) and launches go
    // on with their records. Before: "timing stopped" was final, and launches 3,001-4,000 were
    // counted, never timed.
    CollectorRig rig(1024);
    for (std::uint32_t id = 1; id <= 3000; ++id) {
        FakeLaunch(id, "_Z1kv").run(rig.backend);
    }
    for (std::uint32_t id = 1; id <= 3000; ++id) {
        rig.backend.on_kernel_record(kernel_record(id, 100, 1100));
    }
    for (std::uint32_t id = 3001; id <= 4000; ++id) {
        FakeLaunch(id, "_Z1kv").run(rig.backend);
        rig.backend.on_kernel_record(kernel_record(id, 100, 1100));
    }
    const CollectorStats s = rig.collector.stats();
    EXPECT_EQ(s.lost_durations, 0u);
    EXPECT_EQ(s.unmatched_durations, 0u);
    EXPECT_EQ(s.aggregate_durations, 3000u - 2047u); // the counted-only ones, in aggregate
    const model::Profile p = rig.profile();
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].launches, 4000u);
    EXPECT_DOUBLE_EQ(p.kernels[0].time_ns.total, (2047 + 1000) * 1000.0);
    EXPECT_TRUE(warned(p, "kernel timing stopped"));
    EXPECT_TRUE(warned(p, "kernel timing resumed"));
    EXPECT_TRUE(warned(p, "953 launches after kernel timing stopped were counted only"));
}

/// A sink whose launches block until released: a thread that a signal stopped inside a sink call.
class BlockingSink final : public LaunchSink {
public:
    LaunchDecision on_launch(const LaunchEvent& /*event*/) noexcept override {
        std::unique_lock<std::mutex> lock(m_mutex);
        ++m_launches;
        m_changed.notify_all();
        m_changed.wait(lock, [this] { return m_released; });
        return LaunchDecision::time_only;
    }
    void on_counters(const CounterSample& /*sample*/) noexcept override {}
    void on_duration(const DurationRecord& /*record*/) noexcept override {}
    void on_warning(const std::string& /*message*/) noexcept override {}
    /// Waits up to 5 s for `n` launches to have begun.
    bool wait_for_launches(int n) {
        std::unique_lock<std::mutex> lock(m_mutex);
        return m_changed.wait_for(lock, std::chrono::seconds(5), [&] { return m_launches >= n; });
    }
    int launches() {
        const std::lock_guard<std::mutex> lock(m_mutex);
        return m_launches;
    }
    void release() {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_released = true;
        }
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_launches = 0;
    bool m_released = false;
};

TEST(CuptiLifecycle, StopDoesNotWaitForASinkCallThatNeverEnds) {
    // Issue 51 A5: a fatal signal stops a thread inside a sink call (the launch path holds the
    // lifecycle lock shared), and the finalizer's stop() took that lock exclusively without a
    // bound: 20 s, then "profile abandoned". Now no sink call begins once stop() has begun, and
    // stop() waits for the ones in flight for a bounded time (1 s).
    FakeScript script;
    BlockingSink sink;
    CuptiBackend backend{CuptiOptions{}};
    backend.set_sampling_seam_for_test(quiet_seam({std::make_unique<FakePlatform>(script)}));
    backend.attach_sink_for_test(sink);
    std::thread stuck([&backend] { FakeLaunch(1, "_Z1kv").run(backend); });
    ASSERT_TRUE(sink.wait_for_launches(1));
    std::atomic<bool> stopped{false};
    const auto start = std::chrono::steady_clock::now();
    std::thread stopper([&] {
        backend.stop();
        stopped = true;
    });
    while (!stopped && std::chrono::steady_clock::now() - start < std::chrono::seconds(5)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(stopped.load()) << "stop() waited for the stopped thread";
    FakeLaunch(2, "_Z1kv").run(backend); // after stop(): no sink call
    EXPECT_EQ(sink.launches(), 1);
    sink.release();
    stuck.join();
    stopper.join();
}

} // namespace
} // namespace test_cupti_bookkeeping
} // namespace irf::intercept::cupti::test
