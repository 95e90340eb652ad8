// SPDX-License-Identifier: Apache-2.0
// Process lifecycle hooks: exit, fatal signals, fork. Finalization runs on its own thread.
#pragma once

namespace irf::inject {

/// Starts the finalizer thread (every signal blocked) that runs `finalize` once when woken, and
/// registers with atexit and at_quick_exit a hook that wakes it and waits. Installs a handler for
/// SIGTERM, SIGABRT and SIGINT (not for one that is ignored, nor for a SIGINT the application
/// already handles, e.g. Python): the handler only wakes the finalizer, waits a bounded time for
/// it, restores the disposition found at install time and re-raises. If the wait runs out it
/// removes the temporary being written and says in one line that the profile was abandoned.
/// `child_reset` runs in a forked child, which gets a finalizer of its own.
void install_lifecycle(void (*finalize)() noexcept, void (*child_reset)() noexcept) noexcept;

/// Tells the lifecycle the temporary file being written (nullptr when none), so that a signal
/// that abandons the write removes it. Called by the finalizer thread only.
void note_temporary(const char* path) noexcept;

/// Whether a fatal signal woke the finalizer (its wait is 20 s, not an exit's 120 s).
[[nodiscard]] bool finalizing_for_signal() noexcept;

} // namespace irf::inject
