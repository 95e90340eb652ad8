// SPDX-License-Identifier: Apache-2.0
// atexit, signal and fork hooks.
#include "inject/lifecycle.hpp"

#include <csignal>
#include <cstdlib>

#include <pthread.h>

namespace irf::inject {
namespace {

constexpr int k_signals[] = {SIGTERM, SIGINT, SIGABRT};
constexpr int k_signal_count = sizeof(k_signals) / sizeof(k_signals[0]);

void (*s_finalize)() noexcept = nullptr;
struct sigaction s_previous[k_signal_count];

void at_exit() {
    s_finalize();
}

void on_signal(int sig) {
    // Writing files is not async-signal-safe; the process is ending anyway, and a profile of
    // what ran is worth that risk (finalize is idempotent and skips work already under way).
    s_finalize();
    for (int i = 0; i < k_signal_count; ++i) {
        if (k_signals[i] == sig) {
            ::sigaction(sig, &s_previous[i], nullptr);
        }
    }
    // Blocked while this handler runs; delivered with the original disposition on return.
    ::raise(sig);
}

} // namespace

void install_lifecycle(void (*finalize)() noexcept, void (*child_reset)() noexcept) noexcept {
    s_finalize = finalize;
    std::atexit(at_exit);
    std::at_quick_exit(at_exit); // quick_exit skips atexit handlers but runs these
    for (int i = 0; i < k_signal_count; ++i) {
        struct sigaction current {};
        if (::sigaction(k_signals[i], nullptr, &current) != 0 || current.sa_handler == SIG_IGN) {
            continue; // an ignored signal does not end the process: nothing to finalize
        }
        struct sigaction ours {};
        ours.sa_handler = on_signal;
        sigemptyset(&ours.sa_mask);
        ours.sa_flags = SA_RESTART;
        ::sigaction(k_signals[i], &ours, &s_previous[i]);
    }
    ::pthread_atfork(nullptr, nullptr, child_reset);
}

} // namespace irf::inject
