// SPDX-License-Identifier: Apache-2.0
// Test doubles of samples by launches (IRF_REPLAY) behind the CUPTI seam: profilers whose armed
// passes behave as CUPTI's user replay is documented to, a platform of them, a sink that answers
// from a queue and records the pass protocol, and a backend rig (tests/integration/
// test_cupti_passes.cpp).
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {

/// What the pass profilers did; shared by every profiler of one platform.
struct PassScript {
    std::vector<std::string> journal; ///< "arm", "pass <n> of <image>", "replay", "teardown"
    int passes = 3;
    bool user_replay = true;         ///< arm_pass is accepted
    int refuse_pass = -1;            ///< Start refuses this pass index
    std::vector<const void*> images; ///< every image armed, in order
};

/// A RangeProfiler whose armed passes behave as CUPTI's user replay is documented to: one pass
/// per Start/Stop, the sample complete at the last; every metric evaluates to its pass count.
class PassProfiler final : public RangeProfiler {
public:
    explicit PassProfiler(PassScript& script) : m_script(script) {}
    ~PassProfiler() override { teardown(); }
    ProfilerStatus setup(CUcontext, CUdevice, const std::string&,
                         const std::vector<std::string>& metrics,
                         std::vector<std::uint8_t>& availability) noexcept override {
        m_metrics = metrics;
        availability = {1};
        m_enabled = true;
        return {};
    }
    ProfilerStatus arm_pass(PassSample& sample) noexcept override {
        if (!m_script.user_replay) {
            return {ProfilerFailure::unsupported, "no user replay"};
        }
        if (!sample.image) {
            sample.image = std::make_shared<std::vector<std::uint8_t>>(8, 0);
        }
        m_armed = &sample;
        m_script.journal.push_back("arm");
        return {};
    }
    ProfilerStatus start() noexcept override {
        if (m_armed == nullptr) {
            m_script.journal.push_back("replay");
            return {};
        }
        m_script.images.push_back(m_armed->image.get());
        m_script.journal.push_back("pass " + std::to_string(m_armed->next_pass));
        if (static_cast<int>(m_armed->next_pass) == m_script.refuse_pass) {
            m_armed = nullptr;
            return {ProfilerFailure::other, "CUPTI_ERROR_INVALID_OPERATION"};
        }
        return {};
    }
    ProfilerStatus stop_and_evaluate(std::vector<double>& values,
                                     RangeReport& report) noexcept override {
        report = {1, 0};
        if (m_armed == nullptr) {
            values.assign(m_metrics.size(), 1);
            set_ctas(values);
            return {};
        }
        ++(*m_armed->image)[0]; // the passes this image collected
        m_armed->next_pass += 1;
        values.clear();
        if (static_cast<int>(m_armed->next_pass) == m_script.passes) {
            m_armed->complete = true;
            values.assign(m_metrics.size(), (*m_armed->image)[0]);
            set_ctas(values);
        }
        m_armed = nullptr;
        return {};
    }
    void teardown() noexcept override {
        if (m_enabled) {
            m_script.journal.push_back("teardown");
            m_enabled = false;
        }
    }
    [[nodiscard]] int passes() const noexcept override { return m_script.passes; }

private:
    void set_ctas(std::vector<double>& values) const {
        for (std::size_t i = 0; i < m_metrics.size(); ++i) {
            if (m_metrics[i] == "sm__ctas_launched.sum") {
                values[i] = 16; // a FakeLaunch's grid: 8 x 2 x 1
            }
        }
    }
    PassScript& m_script;
    std::vector<std::string> m_metrics;
    PassSample* m_armed = nullptr;
    bool m_enabled = false;
};

/// FakePlatform's queries, with PassProfilers.
class PassPlatform final : public ProfilerPlatform {
public:
    PassPlatform(PassScript& script, FakeScript& queries) : m_script(script), m_queries(queries) {}
    ProfilerStatus initialize() noexcept override { return {}; }
    std::string chip(CUdevice) noexcept override { return "GH100"; }
    std::unique_ptr<RangeProfiler> make_profiler() override {
        return std::make_unique<PassProfiler>(m_script);
    }
    bool is_capturing(CUstream, bool) noexcept override { return false; }
    bool stream_id(CUcontext, CUstream, bool, std::uint32_t& id) noexcept override {
        id = 0;
        return true;
    }
    std::uint32_t device_of(CUcontext context) noexcept override {
        const auto it = m_queries.devices.find(context);
        return it != m_queries.devices.end() ? it->second : 0;
    }
    bool subscription_alive(void*) noexcept override { return true; }
    bool set_graph_trace(bool, std::string&) noexcept override { return true; }

private:
    PassScript& m_script;
    FakeScript& m_queries;
};

/// Answers each launch from a queue of decisions (time_only when empty) and records the rest.
class PassRecorder final : public LaunchSink {
public:
    LaunchDecision on_launch(const LaunchEvent&) noexcept override {
        if (answers.empty()) {
            return LaunchDecision::time_only;
        }
        const LaunchDecision d = answers.front();
        answers.pop_front();
        return d;
    }
    void on_counters(const CounterSample& sample) noexcept override { samples.push_back(sample); }
    void on_duration(const DurationRecord&) noexcept override {}
    void on_warning(const std::string& message) noexcept override { warnings.push_back(message); }
    void on_discarded_sample(std::uint64_t id, const char* reason) noexcept override {
        discards.push_back(std::to_string(id) + " " + reason);
    }
    void on_sample_declined(std::uint64_t id, const char*) noexcept override {
        declines.push_back(id);
    }
    void on_sample_pass(std::uint64_t id, std::uint64_t sample_id) noexcept override {
        passes.push_back(std::to_string(id) + " of " + std::to_string(sample_id));
    }
    void on_sample_abandoned(std::uint64_t sample_id, const char* reason) noexcept override {
        abandoned.push_back(std::to_string(sample_id) + " " + reason);
    }
    void on_sample_deferred(std::uint64_t id) noexcept override { deferred.push_back(id); }

    std::deque<LaunchDecision> answers;
    std::vector<CounterSample> samples;
    std::vector<std::string> warnings, discards, passes, abandoned;
    std::vector<std::uint64_t> declines, deferred;
};

/// The CUPTI backend on PassProfilers; `bound` launches for a configuration to recur.
struct PassRig {
    PassScript script;
    FakeScript queries;
    PassRecorder sink;
    CuptiBackend backend{CuptiOptions{}};
    explicit PassRig(std::uint64_t bound = k_recur_bound) {
        SamplingSeam seam;
        seam.platform = std::make_unique<PassPlatform>(script, queries);
        seam.recur_bound = bound;
        backend.set_sampling_seam_for_test(std::move(seam));
        backend.attach_sink_for_test(sink);
    }
    /// Launch `id` of the kernel at `function` (context 1), answered `answer`.
    void launch(std::uint32_t id, std::uintptr_t function,
                LaunchDecision answer = LaunchDecision::time_only, CUcontext context = ctx(1)) {
        sink.answers.push_back(answer);
        FakeLaunch(id, "_Z1kv", context, function).run(backend);
    }
    [[nodiscard]] long count(const std::string& entry) const {
        return std::count(script.journal.begin(), script.journal.end(), entry);
    }
};

constexpr auto k_launches = LaunchDecision::profile_launches;

} // namespace irf::intercept::cupti::test
