// SPDX-License-Identifier: Apache-2.0
// atexit, signal and fork hooks around a finalizer thread. Finalization (CUPTI flush, the model,
// file writes) is not async-signal-safe and may need locks that the interrupted thread holds, so
// the signal handler never does it: it only writes to a pipe and polls another (both
// async-signal-safe) while the finalizer thread, which blocks every signal, does the work.
#include "inject/lifecycle.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include "common/inside_irf.hpp"
#include "common/log.hpp"

namespace irf::inject {
namespace {

constexpr int k_signals[] = {SIGTERM, SIGINT, SIGABRT};
constexpr int k_signal_count = sizeof(k_signals) / sizeof(k_signals[0]);

/// Bound on a signal's wait for the profile: batch systems follow SIGTERM with SIGKILL (Slurm's
/// default KillWait is 30 s), so the handler gives up well before.
constexpr int k_signal_wait_ms = 20000;
/// Bound on a normal exit's wait: longer (a large profile), but the application never hangs.
constexpr int k_exit_wait_ms = 120000;
/// The finalizer's stack, independent of RLIMIT_STACK (which glibc uses as the default).
constexpr std::size_t k_finalizer_stack = std::size_t{8} << 20;
constexpr std::size_t k_path_max = 4096;

constexpr char k_signal_abandoned[] =
    "[irf] profile abandoned: a fatal signal waited 20 s for it; the process ends now\n";
constexpr char k_signal_inside_irf[] =
    "[irf] profile abandoned: a fatal signal came while irf held its locks; the process ends now\n";
constexpr char k_exit_abandoned[] =
    "[irf] profile abandoned: the exit waited 120 s for it; the process ends now\n";

void (*s_finalize)() noexcept = nullptr;
void (*s_child_reset)() noexcept = nullptr;
struct sigaction s_previous[k_signal_count];

// The finalizer is woken through s_wake; it writes one byte to s_done when finished, which is
// never read, so poll() sees s_done readable from then on, for any number of waiters.
int s_wake[2] = {-1, -1};
int s_done[2] = {-1, -1};
std::atomic<pid_t> s_finalizer_pid{0}; ///< the process whose finalizer runs; 0 = none
/// Set (release) by the finalizer when done, read (acquire) by a waiter that saw s_done: the
/// pipe alone orders the two for the kernel but not for ThreadSanitizer, which then reports the
/// static destructors that run after the wait as racing with the finalizer's reads.
std::atomic<bool> s_finalized{false};
std::atomic<bool> s_signalled{false}; ///< a fatal signal woke the finalizer (lock-free)
pthread_t s_finalizer_thread{};

// The temporary being written, for a handler that gives up to remove.
char s_temporary[k_path_max];
std::atomic<bool> s_temporary_set{false};

void close_pipes() noexcept {
    for (int* fd : {&s_wake[0], &s_wake[1], &s_done[0], &s_done[1]}) {
        if (*fd >= 0) {
            ::close(*fd);
            *fd = -1;
        }
    }
}

void* finalizer_main(void*) {
    char byte = 0;
    for (;;) {
        const ssize_t n = ::read(s_wake[0], &byte, 1);
        if (n == 1) {
            break;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        return nullptr; // the pipe is unusable: atexit cannot wake us either (it gives up)
    }
    s_finalize();
    s_finalized.store(true, std::memory_order_release);
    const char done = 'd';
    (void)!::write(s_done[1], &done, 1);
    return nullptr;
}

bool open_pipes() noexcept {
    if (::pipe2(s_wake, O_CLOEXEC) != 0 || ::pipe2(s_done, O_CLOEXEC) != 0) {
        close_pipes();
        return false;
    }
    // Writers never block: a full wake pipe already holds a wake-up.
    ::fcntl(s_wake[1], F_SETFL, O_NONBLOCK);
    ::fcntl(s_done[1], F_SETFL, O_NONBLOCK);
    return true;
}

/// Starts the finalizer thread with every signal blocked, so no signal is ever handled on it.
bool start_finalizer() noexcept {
    if (!open_pipes()) {
        return false;
    }
    sigset_t all;
    sigset_t previous;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &previous);
    pthread_attr_t attr;
    ::pthread_attr_init(&attr);
    ::pthread_attr_setstacksize(&attr, k_finalizer_stack);
    ::pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    const int rc = ::pthread_create(&s_finalizer_thread, &attr, finalizer_main, nullptr);
    ::pthread_attr_destroy(&attr);
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (rc != 0) {
        close_pipes();
        errno = rc;
        return false;
    }
    s_finalizer_pid.store(::getpid());
    return true;
}

/// Whether this process has a finalizer thread and the caller is not it.
bool can_hand_off() noexcept {
    return s_finalizer_pid.load() == ::getpid() &&
           ::pthread_equal(::pthread_self(), s_finalizer_thread) == 0;
}

long elapsed_ms(const timespec& since) noexcept {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since.tv_sec) * 1000L + (now.tv_nsec - since.tv_nsec) / 1000000L;
}

/// Wakes the finalizer (once is enough; more are harmless) and waits up to `timeout_ms` for it
/// to finish. Async-signal-safe.
bool wake_and_wait(int timeout_ms) noexcept {
    const char byte = 'w';
    (void)!::write(s_wake[1], &byte, 1);
    timespec start{};
    ::clock_gettime(CLOCK_MONOTONIC, &start);
    pollfd done{s_done[0], POLLIN, 0};
    for (;;) {
        const long left = timeout_ms - elapsed_ms(start);
        if (left <= 0) {
            return false;
        }
        const int rc = ::poll(&done, 1, static_cast<int>(left));
        if (rc > 0) {
            return s_finalized.load(std::memory_order_acquire); // lock-free: signal-safe
        }
        if (rc != 0 || errno != EINTR) {
            return false;
        }
    }
}

/// The finalizer did not finish in time: remove its temporary and say so. Async-signal-safe.
void abandon(const char* line, std::size_t length) noexcept {
    if (s_temporary_set.load(std::memory_order_acquire)) {
        ::unlink(s_temporary);
    }
    (void)!::write(STDERR_FILENO, line, length);
}

void at_exit() {
    if (!can_hand_off()) {
        s_finalize(); // a child whose finalizer could not start: finalize here
        return;
    }
    if (!wake_and_wait(k_exit_wait_ms)) {
        abandon(k_exit_abandoned, sizeof k_exit_abandoned - 1);
    }
}

void on_signal(int sig) {
    const int saved_errno = errno;
    if (common::inside_irf()) {
        // This thread holds irf's locks (CUPTI's worker delivering records): the finalizer
        // would wait for them until the bound, so the profile is given up at once.
        abandon(k_signal_inside_irf, sizeof k_signal_inside_irf - 1);
    } else if (can_hand_off()) {
        s_signalled.store(true); // before the wake: the finalizer reads it
        if (!wake_and_wait(k_signal_wait_ms)) {
            abandon(k_signal_abandoned, sizeof k_signal_abandoned - 1);
        }
    }
    for (int i = 0; i < k_signal_count; ++i) {
        if (k_signals[i] == sig) {
            ::sigaction(sig, &s_previous[i], nullptr);
        }
    }
    errno = saved_errno;
    // Blocked while this handler runs; delivered with the original disposition on return.
    ::raise(sig);
}

/// A forked child has no finalizer thread (fork copies only the caller) and shares the
/// parent's pipes: it gets its own of both.
void at_fork_child() {
    const bool had_finalizer = s_finalizer_pid.load() != 0;
    s_finalizer_pid.store(0);
    close_pipes();
    s_temporary_set.store(false);
    s_finalized.store(false);
    s_signalled.store(false);
    s_child_reset();
    if (had_finalizer) {
        (void)start_finalizer(); // failing, atexit finalizes inline and signals pass through
    }
}

/// Whether the application already handles `sig` itself.
bool has_own_handler(const struct sigaction& current) noexcept {
    return (current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL;
}

void install_handlers() noexcept {
    for (int i = 0; i < k_signal_count; ++i) {
        struct sigaction current {};
        if (::sigaction(k_signals[i], nullptr, &current) != 0 ||
            ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN)) {
            continue; // an ignored signal does not end the process: nothing to finalize
        }
        if (has_own_handler(current)) {
            // The application's own handler runs at once, as without irf: Python's Ctrl-C
            // (KeyboardInterrupt, then a normal exit), a SIGTERM handler that checkpoints within
            // Slurm's KillWait, a crash reporter's SIGABRT. irf writes at the exit that follows,
            // if there is one; finalizing first would take from the application's window.
            continue;
        }
        struct sigaction ours {};
        ours.sa_handler = on_signal;
        sigemptyset(&ours.sa_mask);
        for (const int other : k_signals) {
            sigaddset(&ours.sa_mask, other); // a second fatal signal waits on another thread
        }
        ours.sa_flags = SA_RESTART;
        ::sigaction(k_signals[i], &ours, &s_previous[i]);
    }
}

} // namespace

void note_temporary(const char* path) noexcept {
    s_temporary_set.store(false, std::memory_order_release);
    if (path != nullptr && std::strlen(path) < k_path_max) {
        std::memcpy(s_temporary, path, std::strlen(path) + 1);
        s_temporary_set.store(true, std::memory_order_release);
    }
}

bool finalizing_for_signal() noexcept {
    return s_signalled.load();
}

void install_lifecycle(void (*finalize)() noexcept, void (*child_reset)() noexcept) noexcept {
    s_finalize = finalize;
    s_child_reset = child_reset;
    const bool finalizer = start_finalizer();
    std::atexit(at_exit);
    std::at_quick_exit(at_exit); // quick_exit skips atexit handlers but runs these
    ::pthread_atfork(nullptr, nullptr, at_fork_child);
    if (!finalizer) {
        common::log_line(common::LogLevel::error,
                         std::string("cannot start the finalizer thread (") + std::strerror(errno) +
                             "): a fatal signal ends the process without a profile");
        return;
    }
    install_handlers();
}

} // namespace irf::inject
