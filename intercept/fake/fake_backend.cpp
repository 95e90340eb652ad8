// SPDX-License-Identifier: Apache-2.0
// The fake backend: plays a script through the sink like the CUPTI backend (on_launch; counters
// right after a profiled launch, as the range profiler decodes at launch exit; durations
// buffered like activity records and delivered at flush, or as CUPTI does in buffers of N
// records completed from its own thread while launches go on, some early, some never). A
// looping script keeps launching on its own threads until stop(), as an application does while
// it is signalled.
#include "intercept/fake/fake_backend.hpp"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

#include "common/file_io.hpp"
#include "common/log.hpp"
#include "intercept/fake/fake_graphs.hpp"
#include "intercept/fake/fake_passes.hpp"
#include "intercept/fake/fake_script.hpp"
#include "intercept/launch_log.hpp"
#include "intercept/nvtx_stack.hpp"

namespace irf::intercept {
namespace {

using fake::ActivityRecord;

/// One script thread: its launches in order and the records it has played, appended without
/// a lock so that a player stopped by a signal never blocks flush().
struct Player {
    int thread = 0;
    std::vector<const fake::ScriptLaunch*> launches;
    AppendLog<ActivityRecord> records;
};

class FakeBackend final : public Backend {
public:
    FakeBackend(std::string path, const FakeOptions& options)
        : m_path(std::move(path)), m_options(options) {}
    ~FakeBackend() override { stop(); }
    FakeBackend(const FakeBackend&) = delete;
    FakeBackend& operator=(const FakeBackend&) = delete;

    bool start(LaunchSink& sink) noexcept override {
        try {
            std::string text;
            const std::string error = common::read_file_bounded(m_path, text, 64u << 20);
            if (!error.empty()) {
                throw fake::ScriptError(error);
            }
            m_script = fake::parse_script(text);
            m_passes = std::make_unique<fake::FakePasses>(m_script.passes, m_script.recur_bound);
            m_graphs = std::make_unique<fake::FakeGraphs>(m_options.graph_node_replays,
                                                          m_next_graph_id, m_clock);
            prepare_players();
        } catch (const std::exception& e) {
            common::log_line(common::LogLevel::error, "fake backend: " + m_path + ": " + e.what());
            return false;
        }
        m_sink = &sink;
        for (const std::string& w : m_script.warnings) {
            sink.on_warning(w);
        }
        return start_delivery() && play();
    }

    /// Every record not yet delivered, the partial buffer included (cuptiActivityFlushAll).
    void flush() noexcept override {
        while (m_script.flush_hangs) { // until the process ends (the write goes on without it)
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
        std::unique_lock<std::mutex> lock(m_flush_mutex, std::defer_lock); // one log reader
        if (!in_forked_child()) {
            lock.lock();
        } else if (!lock.try_lock()) {
            return; // the parent's delivery thread held it at fork: it is never released here
        }
        collect_locked();
        deliver_locked(m_buffer.size());
        if (m_passes && !in_forked_child()) { // no launch completes a sample any more
            for (const std::uint64_t id : m_passes->close_all()) {
                m_sink->on_sample_abandoned(id, k_discard_not_recurred);
            }
        }
    }

    /// Players stop before their next launch; one inside a launch finishes it. The delivery
    /// thread is joined, so it calls the sink no more.
    void stop() noexcept override {
        m_stop.store(true);
        if (m_delivery.joinable() && m_delivery.get_id() != std::this_thread::get_id() &&
            !in_forked_child()) { // a forked child has no delivery thread to join
            m_delivery.join();
        }
    }
    /// Players stop before their next launch, and buffered records are delivered no more: the
    /// delivery thread ends its current buffer first (it holds m_flush_mutex for it).
    void seal() noexcept override {
        m_sealed.store(true);
        m_stop.store(true);
        if (!in_forked_child()) {
            const std::lock_guard<std::mutex> lock(m_flush_mutex);
        }
    }
    model::GpuInfo gpu_info() const noexcept override { return m_script.gpu; }
    int passes() const noexcept override { return m_profiled.load() > 0 ? m_script.passes : 0; }
    std::string name() const override { return "fake"; }

private:
    /// Groups launches by script thread and gives each kernel name its handle, all before any
    /// launch is played (so the players share nothing but atomics).
    void prepare_players() {
        std::map<std::string, std::uint64_t> handles;
        const auto handle = [&handles](const std::string& kernel, std::uint64_t& function) {
            if (function == 0) { // one handle per distinct name
                function = handles.emplace(kernel, 0x100000 + handles.size() * 16).first->second;
            }
        };
        std::map<int, Player*> by_thread;
        for (fake::ScriptLaunch& l : m_script.launches) {
            handle(l.kernel, l.function);
            for (fake::ScriptNode& node : l.graph_nodes) {
                handle(node.kernel, node.function);
            }
            if (!l.graph_nodes.empty() && l.graph_exec == 0) { // one exec per launch entry
                l.graph_exec = 0x700000 + (&l - m_script.launches.data()) * 16;
            }
            Player*& player = by_thread[l.thread];
            if (player == nullptr) {
                m_players.push_back(std::make_unique<Player>());
                player = m_players.back().get();
                player->thread = l.thread;
            }
            player->launches.push_back(&l);
        }
    }

    /// With activity buffers, a thread of the backend delivers them as they fill (CUPTI's
    /// buffer-completed callback runs on CUPTI's own thread while the application launches).
    bool start_delivery() noexcept {
        if (m_script.activity.buffer_records == 0) {
            return true;
        }
        try {
            m_delivery_pid = ::getpid();
            m_delivery = std::thread([this] { deliver_while_running(); });
            return true;
        } catch (const std::exception& e) {
            common::log_line(common::LogLevel::error,
                             std::string("fake backend: cannot create the delivery thread: ") +
                                 e.what());
            return false;
        }
    }

    bool in_forked_child() const noexcept {
        return m_delivery_pid != 0 && m_delivery_pid != ::getpid();
    }

    void deliver_while_running() noexcept {
        const std::uint64_t per_buffer = m_script.activity.buffer_records;
        while (!m_stop.load(std::memory_order_relaxed)) {
            {
                const std::lock_guard<std::mutex> lock(m_flush_mutex);
                collect_locked();
                deliver_locked(m_buffer.size() / per_buffer * per_buffer); // whole buffers only
            }
            // Polling, like a buffer filling on the GPU: launches pay nothing to wake us.
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }

    /// Moves the players' new records into the buffer being filled (m_flush_mutex held).
    void collect_locked() noexcept {
        try {
            for (const auto& player : m_players) {
                player->records.drain([this](const ActivityRecord& r) { m_buffer.push_back(r); });
            }
        } catch (...) { // out of memory: the records not moved stay in the players' logs
        }
    }

    /// Hands the first `count` buffered records to the sink (m_flush_mutex held).
    void deliver_locked(std::size_t count) noexcept {
        for (std::size_t i = 0; i < count; ++i) {
            deliver(m_buffer[i]);
        }
        m_delivered.fetch_add(count, std::memory_order_relaxed);
        m_buffer.erase(m_buffer.begin(), m_buffer.begin() + static_cast<std::ptrdiff_t>(count));
    }

    /// One record to the sink: a graph node's launch first (the CUPTI backend reports it from
    /// its record, possibly at the final flush after recording stopped), then its duration.
    void deliver(const ActivityRecord& r) noexcept {
        if (!m_sealed.load()) {
            m_graphs->deliver(r, *m_sink);
        }
    }

    /// Script threads other than 0 (all of them when looping) run on threads of their own;
    /// thread 0 plays in the caller. A thread that cannot be created fails start() in one line.
    bool play() noexcept {
        std::vector<std::thread> workers;
        Player* inline_player = nullptr;
        try {
            for (const auto& player : m_players) {
                if (player->thread == 0 && !m_script.loop) {
                    inline_player = player.get();
                } else {
                    workers.emplace_back([this, p = player.get()] { play_list(*p); });
                }
            }
        } catch (const std::exception& e) {
            m_stop.store(true);
            for (std::thread& t : workers) {
                t.join();
            }
            common::log_line(common::LogLevel::error,
                             std::string("fake backend: cannot create a player thread: ") +
                                 e.what());
            return false;
        }
        if (inline_player != nullptr) {
            play_list(*inline_player);
        }
        for (std::thread& t : workers) {
            if (m_script.loop) {
                t.detach(); // plays until stop(); the backend is never destroyed
            } else {
                t.join();
            }
        }
        return true;
    }

    void play_list(Player& player) noexcept {
        do {
            for (const fake::ScriptLaunch* l : player.launches) {
                for (std::uint64_t i = 0; i < l->repeat; ++i) {
                    if (m_stop.load(std::memory_order_relaxed)) {
                        return;
                    }
                    play_one(player, *l, i);
                }
            }
            if (m_script.loop) {
                // A real launch costs microseconds of driver time; players spinning without
                // pause would starve the finalizer on a small machine, which no real app does.
                std::this_thread::sleep_for(std::chrono::microseconds(100));
            }
        } while (m_script.loop);
    }

    /// A GPU runs only so far ahead of the completed records (its launch queue is finite): with
    /// activity buffers a player waits while two buffers' worth of records are undelivered, so
    /// launches cannot outrun the delivery thread as no real application can.
    void wait_for_the_queue() const noexcept {
        const std::uint64_t per_buffer = m_script.activity.buffer_records;
        while (per_buffer > 0 && !m_stop.load(std::memory_order_relaxed) &&
               m_appended.load(std::memory_order_relaxed) -
                       m_delivered.load(std::memory_order_relaxed) >
                   2 * per_buffer) {
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
    }

    void play_one(Player& player, const fake::ScriptLaunch& l, std::uint64_t index) noexcept {
        wait_for_the_queue();
        LaunchEvent event;
        event.function = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(l.function));
        event.mangled = l.kernel.c_str();
        event.launch = l.launch;
        event.device = l.device;
        event.graph = l.graph;
        // As the CUPTI backend does, a graph node gets an id of its own from 2^32 up, apart
        // from the 32-bit ids of launches (docs/cupti-notes.md, step 5).
        event.correlation_id = l.graph ? m_next_graph_id.fetch_add(1)
                                       : m_next_correlation.fetch_add(1); // and cuGraphLaunch's
        nvtx::set_stack(l.nvtx); // what the application's NVTX calls would have left
        if (index == 0 && !l.profiler.empty()) {
            m_sink->on_profiler_range(l.profiler == "start"); // cudaProfilerStart/Stop
        }
        if (l.graph || !l.graph_nodes.empty()) {
            // As CUPTI does: the path is taken at cuGraphLaunch, and the kernels are reported
            // only with their activity records (play_record), whose thread has no NVTX stack.
            event.region = nvtx::current_path();
            event.region_given = true;
            nvtx::set_stack({});
            for (const ActivityRecord& r : m_graphs->replay(l, index, event)) {
                play_record(player, r);
            }
            return;
        }
        const LaunchDecision decision = m_sink->on_launch(event);
        try {
            if (decision == LaunchDecision::profile_launches) {
                ++m_profiled;
                report_pass(event, m_passes->begin(event, l));
            } else if (decision == LaunchDecision::profile_tensor_types && m_passes->any_open()) {
                m_sink->on_sample_deferred(event.correlation_id); // it waits for the passes
                report_pass(event, m_passes->next(event, l));
            } else if (profiles(decision)) {
                ++m_profiled;
                replay_kernel(event, l, decision);
            } else {
                report_pass(event, m_passes->next(event, l));
            }
            for (const std::uint64_t id : m_passes->overdue()) {
                m_sink->on_sample_abandoned(id, k_discard_not_recurred);
            }
        } catch (...) { // out of memory: the sample is lost, as a failed range would be
        }
        const double ns = l.duration_ns[index % l.duration_ns.size()];
        play_record(player, ActivityRecord{fake::stamp(m_clock, event.correlation_id, ns), {}});
    }

    /// A kernel-replay sample: every pass on this launch; discarded when its window held
    /// another number of ranges than one.
    void replay_kernel(const LaunchEvent& event, const fake::ScriptLaunch& l,
                       LaunchDecision decision) {
        if (l.ranges != 1) {
            m_sink->on_discarded_sample(event.correlation_id, "extra_ranges");
            return;
        }
        CounterSample sample;
        sample.correlation_id = event.correlation_id;
        sample.counters = decision == LaunchDecision::profile_tensor_types
                              ? fake::tensor_types_sample(l)
                              : l.counters;
        sample.passes = m_script.passes;
        m_sink->on_counters(sample);
    }

    /// Tells the sink what a launch did for a sample by launches (fake_passes.hpp).
    void report_pass(const LaunchEvent& event, const fake::PassOutcome& out) {
        using Kind = fake::PassOutcome::Kind;
        if (out.deferred) {
            m_sink->on_sample_deferred(event.correlation_id);
        }
        if (out.kind == Kind::abandoned) {
            m_sink->on_sample_abandoned(out.sample_id, k_discard_pass_refused);
        } else if (out.kind == Kind::pass) {
            m_sink->on_sample_pass(event.correlation_id, out.sample_id); // the first one's too
            if (out.completed) {
                m_sink->on_counters(*out.completed);
            } else if (out.discard != nullptr) {
                m_sink->on_discarded_sample(out.sample_id, out.discard);
            }
        }
    }

    /// Queues a record for delivery, or drops it, or delivers it at once (script's activity).
    void play_record(Player& player, const ActivityRecord& record) noexcept {
        const fake::ActivityDelivery& activity = m_script.activity;
        const std::uint64_t id = record.duration.correlation_id;
        if (activity.drop_every > 0 && id % activity.drop_every == 0) {
            return; // a dropped activity record: this duration (a graph node: all of it) is gone
        }
        if (activity.early_every > 0 && id % activity.early_every == 0) {
            deliver(record); // before the collector has drained the launch
            return;
        }
        if (player.records.append(record)) {
            m_appended.fetch_add(1, std::memory_order_relaxed);
        }
    }

    std::string m_path;
    FakeOptions m_options;
    fake::Script m_script;
    std::unique_ptr<fake::FakePasses> m_passes; ///< samples by launches (IRF_REPLAY)
    std::unique_ptr<fake::FakeGraphs> m_graphs; ///< graph replays (IRF_GRAPH_TIMING)
    LaunchSink* m_sink = nullptr;
    std::vector<std::unique_ptr<Player>> m_players; ///< fixed before the first launch
    std::mutex m_flush_mutex;             ///< one reader of the players' logs; guards m_buffer
    std::vector<ActivityRecord> m_buffer; ///< the activity buffer being filled
    std::thread m_delivery;               ///< with activity buffers only
    pid_t m_delivery_pid = 0;             ///< the process that started m_delivery
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_sealed{false}; ///< seal(): no record reaches the sink any more
    std::atomic<std::uint64_t> m_next_correlation{1};
    std::atomic<std::uint64_t> m_next_graph_id{k_first_synthetic_id};
    std::atomic<std::uint64_t> m_clock{1'000'000};
    std::atomic<int> m_profiled{0};
    std::atomic<std::uint64_t> m_appended{0};  ///< records put into the players' logs
    std::atomic<std::uint64_t> m_delivered{0}; ///< records handed to the sink by buffers
};

} // namespace

std::unique_ptr<Backend> make_fake_backend(const std::string& script_path,
                                           const FakeOptions& options) {
    return std::make_unique<FakeBackend>(script_path, options);
}

} // namespace irf::intercept
