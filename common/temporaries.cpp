// SPDX-License-Identifier: Apache-2.0
#include "common/temporaries.hpp"

#include <array>
#include <atomic>
#include <climits>
#include <csignal>
#include <cstring>
#include <random>

#include <unistd.h>

namespace irf::common {
namespace {

/// One temporary per writing thread; the signal handler reads them, so they are plain memory
/// claimed once per thread, never allocated.
struct Slot {
    std::atomic<bool> held{false}; ///< `name` is a temporary that exists
    char name[PATH_MAX + 64] = {};
};

constexpr std::size_t k_slots = 16;
std::array<Slot, k_slots> s_slots;
std::atomic<std::size_t> s_next_slot{0};
std::atomic<bool> s_enabled{false};

extern "C" void remove_and_reraise(int sig) {
    for (Slot& slot : s_slots) {
        if (slot.held.load()) {
            ::unlink(slot.name);
        }
    }
    // Blocked while the handler runs: delivered at its default action once it returns.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

extern "C" void let_the_write_fail(int) {}

void install(int sig, void (*handler)(int)) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) {
        return;
    }
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    ::sigaction(sig, &action, nullptr);
}

} // namespace

void remove_temporaries_on_signals() noexcept {
    if (s_enabled.exchange(true)) {
        return;
    }
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        install(sig, remove_and_reraise);
    }
    install(SIGXFSZ, let_the_write_fail);
}

std::string temporary_name(const std::string& path) {
    std::random_device rd;
    return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd() & 0xffffffu);
}

void tell_temporary(void (*on_temporary)(const char*), const char* name) noexcept {
    if (on_temporary != nullptr) {
        on_temporary(name);
    }
    if (!s_enabled.load()) {
        return;
    }
    thread_local std::size_t mine = s_next_slot.fetch_add(1);
    if (mine >= k_slots) {
        return; // more writing threads than slots: that thread's temporary is not removed
    }
    Slot& slot = s_slots[mine];
    slot.held.store(false);
    if (name != nullptr && std::strlen(name) < sizeof slot.name) {
        std::strcpy(slot.name, name);
        slot.held.store(true);
    }
}

} // namespace irf::common
