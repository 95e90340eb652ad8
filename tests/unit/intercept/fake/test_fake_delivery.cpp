// SPDX-License-Identifier: Apache-2.0
// The fake backend delivers durations as CUPTI does (issue 34 item 1): whole buffers of N
// records from a thread of its own while launches go on and the rest at flush; some records
// before the collector has drained their launch; some never. Played into the real collector.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/fake/fake_backend.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::intercept {
namespace test_fake_delivery {
namespace {

/// One kernel launched `repeat` times by the thread calling start(), 1000 ns each.
std::string script(std::uint64_t repeat, const std::string& activity) {
    return R"({"activity": )" + activity + R"(, "launches": [{"kernel": "_Z1kv", "repeat": )" +
           std::to_string(repeat) + R"(, "duration_ns": 1000}]})";
}

/// Forwards to the collector and notes who delivered each duration, and when.
class WatchingSink final : public LaunchSink {
public:
    /// Made on the thread that calls start(), which plays thread 0's launches.
    explicit WatchingSink(Collector& collector)
        : m_collector(collector), m_launcher(std::this_thread::get_id()) {}

    /// Before launch `pause_at` (1-based) the launching thread waits, at most 10 s, until
    /// `wait_for` durations have arrived: they can only come from another thread.
    void pause(std::uint64_t pause_at, std::uint64_t wait_for) {
        m_pause_at = pause_at;
        m_wait_for = wait_for;
    }

    LaunchDecision on_launch(const LaunchEvent& event) noexcept override {
        if (++m_launches == m_pause_at) {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_arrived.wait_for(lock, std::chrono::seconds(10),
                               [this] { return m_durations >= m_wait_for; });
            m_durations_at_pause = m_durations;
        }
        return m_collector.on_launch(event);
    }
    void on_counters(const CounterSample& sample) noexcept override {
        m_collector.on_counters(sample);
    }
    void on_duration(const DurationRecord& record) noexcept override {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            ++m_durations;
            if (!m_flushing) {
                (std::this_thread::get_id() == m_launcher ? m_by_launcher : m_by_other)++;
            }
        }
        m_arrived.notify_all();
        m_collector.on_duration(record);
    }
    void on_warning(const std::string& message) noexcept override {
        m_collector.on_warning(message);
    }
    /// From now on deliveries are the flush's.
    void flushing() {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_flushing = true;
        m_before_flush = m_durations;
    }

    std::uint64_t m_durations_at_pause = 0;
    std::uint64_t m_before_flush = 0;
    std::uint64_t m_by_launcher = 0; ///< before flush, on the launching thread
    std::uint64_t m_by_other = 0;    ///< before flush, on any other thread
    std::uint64_t m_durations = 0;

private:
    Collector& m_collector;
    const std::thread::id m_launcher;
    std::uint64_t m_launches = 0;
    std::uint64_t m_pause_at = 0;
    std::uint64_t m_wait_for = 0;
    bool m_flushing = false;
    std::mutex m_mutex;
    std::condition_variable m_arrived;
};

config::Config timing_only() {
    config::Config c;
    c.samples = 0;   // no counter samples: every launch is timed as the application ran it
    c.callstack = 0; // no libunwind (its thread-exit cleanup crashes under TSan)
    return c;
}

class FakeDelivery : public test::TempDirTest {
protected:
    /// Plays `text` into a collector through `sink`, flushes and stops; the profile built.
    model::Profile play(const std::string& text, Collector& collector, WatchingSink& sink) {
        test::write_file(m_tmp / "script.json", text);
        std::unique_ptr<Backend> backend = make_fake_backend((m_tmp / "script.json").string());
        EXPECT_TRUE(backend->start(sink)); // thread 0 plays inside start()
        sink.flushing();
        collector.stop_recording();
        backend->flush();
        backend->stop();
        model::Profile p;
        collector.fill_profile(p);
        return p;
    }
};

TEST_F(FakeDelivery, WholeBuffersArriveFromAnotherThreadWhileLaunchesGoOn) {
    Collector collector{timing_only()};
    WatchingSink sink{collector};
    sink.pause(17, 8); // 16 launched = two full buffers of 8; at least one must come meanwhile
    const model::Profile p = play(script(40, R"({"buffer_records": 8})"), collector, sink);
    EXPECT_GE(sink.m_durations_at_pause, 8u);
    EXPECT_EQ(sink.m_before_flush % 8, 0u) << "only whole buffers before the flush";
    EXPECT_EQ(sink.m_by_launcher, 0u);
    EXPECT_EQ(sink.m_by_other, sink.m_before_flush);
    EXPECT_EQ(sink.m_durations, 40u) << "the partial buffer comes at flush";
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].launches, 40u);
    EXPECT_DOUBLE_EQ(p.kernels[0].time_ns.total, 40 * 1000.0); // 40 launches x 1000 ns
    EXPECT_EQ(p.coverage.lost_durations, 0u);
}

TEST_F(FakeDelivery, WithoutBuffersEveryDurationComesAtFlush) {
    Collector collector{timing_only()};
    WatchingSink sink{collector};
    const model::Profile p = play(script(40, "{}"), collector, sink);
    EXPECT_EQ(sink.m_before_flush, 0u);
    EXPECT_EQ(sink.m_durations, 40u);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 40 * 1000.0);
}

TEST_F(FakeDelivery, EarlyRecordsComeBeforeTheCollectorDrainsTheirLaunch) {
    Collector collector{timing_only()};
    WatchingSink sink{collector};
    const model::Profile p = play(script(30, R"({"early_every": 3})"), collector, sink);
    // Correlation ids 1..30: 3, 6, ..., 30 are delivered by the launching thread at once.
    EXPECT_EQ(sink.m_by_launcher, 10u);
    EXPECT_EQ(sink.m_durations, 30u);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 30 * 1000.0);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
    EXPECT_EQ(collector.stats().unmatched_durations, 0u);
}

TEST_F(FakeDelivery, DroppedRecordsNeverComeAndAreCountedLost) {
    Collector collector{timing_only()};
    WatchingSink sink{collector};
    const model::Profile p =
        play(script(40, R"({"buffer_records": 8, "drop_every": 4})"), collector, sink);
    // Ids 4, 8, ..., 40 are dropped: 10 of 40; the kernel's total is the 30 that came.
    EXPECT_EQ(sink.m_durations, 30u);
    EXPECT_EQ(p.coverage.lost_durations, 10u);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 30 * 1000.0);
    EXPECT_EQ(p.kernels.at(0).launches, 40u);
}

TEST_F(FakeDelivery, ActivityKeysAreCheckedLikeTheRest) {
    Collector collector{timing_only()};
    test::write_file(m_tmp / "bad.json", script(1, R"({"buffer": 8})"));
    std::unique_ptr<Backend> backend = make_fake_backend((m_tmp / "bad.json").string());
    EXPECT_FALSE(backend->start(collector)); // "activity.buffer: unknown key", logged
}

} // namespace
} // namespace test_fake_delivery
} // namespace irf::intercept
