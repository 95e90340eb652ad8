// SPDX-License-Identifier: Apache-2.0
// libirf.so's entry point: InitializeInjection, called by the CUDA driver during cuInit.
// Reads IRF_* once, starts the backend feeding the collector, finalizes once at exit.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include <unistd.h>

#include "common/environment.hpp"
#include "common/log.hpp"
#include "config/env.hpp"
#include "inject/backend_factory.hpp"
#include "inject/backend_shutdown.hpp"
#include "inject/lifecycle.hpp"
#include "inject/outputs.hpp"
#include "inject/process_info.hpp"
#include "inject/settings_check.hpp"
#include "intercept/collector.hpp"

namespace irf::inject {
namespace {

using config::LogLevel;

enum Phase : int { k_running = 1, k_finalizing = 2, k_done = 3 };

/// How long the final flush may take before the profile is written without it: under a fatal
/// signal (which waits 20 s in all, the write included) and at an exit (120 s in all).
constexpr std::chrono::milliseconds k_signal_flush_bound{5000};
constexpr std::chrono::milliseconds k_exit_flush_bound{60000};

/// Process-wide state. Never destroyed: finalization runs from atexit and signal handlers,
/// when static destructors may already have run.
struct Injection {
    RunInfo run;
    std::unique_ptr<intercept::Collector> collector;
    intercept::Backend* backend = nullptr; ///< owned; abandoned in a forked child
    std::atomic<int> phase{k_running};
};

Injection* s_injection = nullptr;

void finalize() noexcept {
    Injection* state = s_injection;
    int expected = k_running;
    if (state == nullptr || !state->phase.compare_exchange_strong(expected, k_finalizing)) {
        return; // not started, already done, or under way in this or another thread
    }
    // Threads may still be launching (a signal arrived mid-run): from here their launches are
    // not recorded, so nothing being written out changes underneath.
    state->collector->stop_recording();
    const auto bound = finalizing_for_signal() ? k_signal_flush_bound : k_exit_flush_bound;
    if (state->backend != nullptr && !flush_and_stop_within(*state->backend, bound)) {
        try {
            state->collector->on_warning(
                "the final flush of activity records did not return within " +
                std::to_string(bound.count() / 1000) +
                " s (a signal stopped a thread inside the CUDA driver?): the profile is written "
                "without it, and the last launches' durations are missing");
        } catch (...) { // out of memory: the profile still goes out
        }
    }
    write_outputs(state->run, *state->collector, state->backend);
    state->phase.store(k_done);
}

/// A forked child starts clean: CUDA and CUPTI state does not survive fork, so the parent's
/// backend is abandoned without a call; a fresh collector records what the child does and the
/// child writes its own file, if it launched anything (write_outputs).
void child_reset() noexcept {
    Injection* state = s_injection;
    if (state == nullptr || state->phase.load() != k_running) {
        return;
    }
    try {
        if (state->backend != nullptr) {
            state->backend->detach_after_fork(); // its callbacks must not reach the old collector
        }
        state->backend = nullptr;
        state->collector.release(); // may hold locks of parent threads: never touched again
        state->collector = std::make_unique<intercept::Collector>(state->run.config);
        state->run.start_time = now_iso8601();
        state->run.forked_from = static_cast<int>(::getppid());
    } catch (...) {
        state->phase.store(k_done);
    }
}

__attribute__((destructor)) void finalize_at_unload() {
    finalize(); // fallback when atexit did not run (e.g. dlclose)
}

bool read_config(RunInfo& run) {
    const config::ParseResult parsed = config::parse_env(common::process_env);
    common::set_log_level(parsed.config.log);
    for (const std::string& line : parsed.errors) {
        common::log_line(LogLevel::error, line);
    }
    if (parsed.disabled_by_error) {
        return false;
    }
    if (parsed.config.disable) {
        common::log_line(LogLevel::info, "IRF_DISABLE is set: irf does nothing");
        return false;
    }
    run.config = parsed.config;
    run.config_errors = parsed.errors;
    return true;
}

int initialize() noexcept {
    try {
        auto state = std::make_unique<Injection>();
        if (!read_config(state->run)) {
            return 1;
        }
        state->run.start_time = now_iso8601();
        state->run.start_dir = current_dir();
        note_stderr(state->run);
        state->run.library_dir = library_dir();
        check_settings_at_start(state->run); // before the backend's GPU and CUPTI checks
        state->collector = std::make_unique<intercept::Collector>(state->run.config);
        std::unique_ptr<intercept::Backend> backend = make_backend(state->run.config);
        if (!backend) {
            return 1;
        }
        state->backend = backend.release();
        s_injection = state.release();
        // Hooks first: a backend may deliver launches from start() on (the fake one does).
        install_lifecycle(finalize, child_reset);
        if (!s_injection->backend->start(*s_injection->collector)) {
            // The backend said why in one line; nothing was measured, so nothing is written.
            s_injection->phase.store(k_done);
        }
    } catch (const std::exception& e) {
        common::log_line(LogLevel::error, std::string("not started: ") + e.what());
    } catch (...) {
        common::log_line(LogLevel::error, "not started: unknown error");
    }
    return 1;
}

} // namespace
} // namespace irf::inject

/// Called by the CUDA driver (CUDA_INJECTION64_PATH) during cuInit; returns 1 (success) even
/// when irf disables itself, so the application always runs.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    static std::atomic<bool> s_called{false};
    if (s_called.exchange(true)) {
        return 1;
    }
    return irf::inject::initialize();
}
