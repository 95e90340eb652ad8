// SPDX-License-Identifier: Apache-2.0
// The fake backend: plays a script through the sink like the CUPTI backend (on_launch; counters
// right after a profiled launch, as the range profiler decodes at launch exit; durations
// buffered like activity records and delivered at flush).
#include "intercept/fake/fake_backend.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "intercept/fake/fake_script.hpp"
#include "intercept/log.hpp"
#include "intercept/nvtx_stack.hpp"
#include "model/file_io.hpp"

namespace irf::intercept {
namespace {

class FakeBackend final : public Backend {
public:
    explicit FakeBackend(std::string path) : m_path(std::move(path)) {}

    bool start(LaunchSink& sink) noexcept override {
        try {
            std::string text;
            const std::string error = model::read_file_bounded(m_path, text, 64u << 20);
            if (!error.empty()) {
                throw fake::ScriptError(error);
            }
            m_script = fake::parse_script(text);
        } catch (const std::exception& e) {
            log_line(config::LogLevel::error, "fake backend: " + m_path + ": " + e.what());
            return false;
        }
        m_sink = &sink;
        for (const std::string& w : m_script.warnings) {
            sink.on_warning(w);
        }
        play();
        return true;
    }

    void flush() noexcept override {
        std::vector<DurationRecord> pending;
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            pending.swap(m_durations);
        }
        if (m_sink != nullptr) {
            for (const DurationRecord& d : pending) {
                m_sink->on_duration(d);
            }
        }
    }

    void stop() noexcept override { m_sink = nullptr; }
    model::GpuInfo gpu_info() const noexcept override { return m_script.gpu; }
    int passes() const noexcept override { return m_profiled.load() > 0 ? m_script.passes : 0; }
    std::string name() const override { return "fake"; }

private:
    /// Threads of the script run concurrently; thread 0 is the caller of start().
    void play() noexcept {
        try {
            std::map<int, std::vector<const fake::ScriptLaunch*>> by_thread;
            for (const fake::ScriptLaunch& l : m_script.launches) {
                by_thread[l.thread].push_back(&l);
            }
            std::vector<std::thread> workers;
            for (const auto& [thread, launches] : by_thread) {
                if (thread != 0) {
                    workers.emplace_back([this, list = launches] { play_list(list); });
                }
            }
            if (by_thread.count(0) != 0) {
                play_list(by_thread[0]);
            }
            for (std::thread& t : workers) {
                t.join();
            }
        } catch (const std::exception& e) {
            log_line(config::LogLevel::error, std::string("fake backend: ") + e.what());
        }
    }

    void play_list(const std::vector<const fake::ScriptLaunch*>& launches) {
        for (const fake::ScriptLaunch* l : launches) {
            for (std::uint64_t i = 0; i < l->repeat; ++i) {
                play_one(*l, i);
            }
        }
    }

    void play_one(const fake::ScriptLaunch& l, std::uint64_t index) {
        LaunchEvent event;
        // Distinct fake handles per kernel name unless the script gives one (e.g. to model one
        // kernel loaded into two contexts).
        event.function = reinterpret_cast<const void*>(
            static_cast<std::uintptr_t>(l.function != 0 ? l.function : handle_of(l.kernel)));
        event.mangled = l.kernel.c_str();
        event.launch = l.launch;
        event.device = l.device;
        event.graph = l.graph;
        event.correlation_id = m_next_correlation.fetch_add(1);
        nvtx::set_stack(l.nvtx); // what the application's NVTX calls would have left
        const LaunchDecision decision = m_sink->on_launch(event);
        const double ns = l.duration_ns[index % l.duration_ns.size()];
        if (decision == LaunchDecision::profile) {
            ++m_profiled;
            CounterSample sample;
            sample.correlation_id = event.correlation_id;
            sample.counters = l.counters;
            sample.passes = m_script.passes;
            m_sink->on_counters(sample);
        }
        const std::uint64_t start = m_clock.fetch_add(static_cast<std::uint64_t>(ns) + 1000);
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_durations.push_back(
            {event.correlation_id, start, start + static_cast<std::uint64_t>(ns)});
    }

    std::uint64_t handle_of(const std::string& kernel) {
        const std::lock_guard<std::mutex> lock(m_mutex);
        const auto found = m_handles.find(kernel);
        if (found != m_handles.end()) {
            return found->second;
        }
        const std::uint64_t handle = 0x100000 + m_handles.size() * 16;
        m_handles.emplace(kernel, handle);
        return handle;
    }

    std::string m_path;
    fake::Script m_script;
    LaunchSink* m_sink = nullptr;
    std::mutex m_mutex;
    std::map<std::string, std::uint64_t> m_handles;
    std::vector<DurationRecord> m_durations;
    std::atomic<std::uint64_t> m_next_correlation{1};
    std::atomic<std::uint64_t> m_clock{1'000'000};
    std::atomic<int> m_profiled{0};
};

} // namespace

std::unique_ptr<Backend> make_fake_backend(const std::string& script_path) {
    return std::make_unique<FakeBackend>(script_path);
}

} // namespace irf::intercept
