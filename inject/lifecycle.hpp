// SPDX-License-Identifier: Apache-2.0
// Process lifecycle hooks: exit, fatal signals, fork.
#pragma once

namespace irf::inject {

/// Registers `finalize` with atexit and at_quick_exit and as the handler of SIGTERM, SIGINT and
/// SIGABRT (only those not ignored), and `child_reset` as a pthread_atfork child handler. The
/// signal handler finalizes, restores the disposition found at install time and re-raises, so the
/// process ends (or the application's own handler runs) as it would have without irf.
void install_lifecycle(void (*finalize)() noexcept, void (*child_reset)() noexcept) noexcept;

} // namespace irf::inject
