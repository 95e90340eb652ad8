// SPDX-License-Identifier: Apache-2.0
#include "inject/backend_shutdown.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "common/log.hpp"

namespace irf::inject {
namespace {

/// What the flushing thread and the waiting one share; the flushing thread may outlive the wait.
struct Shutdown {
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
};

void log_took(std::chrono::steady_clock::time_point since) noexcept {
    try {
        if (common::log_enabled(common::LogLevel::debug)) {
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - since);
            common::log_line(common::LogLevel::debug,
                             "final flush and stop took " + std::to_string(ms.count()) + " ms");
        }
    } catch (...) {
    }
}

} // namespace

bool flush_and_stop_within(intercept::Backend& backend, std::chrono::milliseconds bound) noexcept {
    const auto start = std::chrono::steady_clock::now();
    std::shared_ptr<Shutdown> shared;
    try {
        shared = std::make_shared<Shutdown>();
        std::thread([&backend, shared] {
            backend.flush();
            backend.stop();
            {
                const std::lock_guard<std::mutex> lock(shared->mutex);
                shared->done = true;
            }
            shared->finished.notify_all();
        }).detach(); // the backend is never destroyed: the thread may end after the process
    } catch (...) {
        backend.flush();
        backend.stop();
        log_took(start);
        return true;
    }
    bool done = false;
    {
        std::unique_lock<std::mutex> lock(shared->mutex);
        done = shared->finished.wait_for(lock, bound, [&shared] { return shared->done; });
    }
    if (!done) {
        backend.seal();
        return false;
    }
    log_took(start);
    return true;
}

} // namespace irf::inject
