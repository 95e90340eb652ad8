// SPDX-License-Identifier: Apache-2.0
// The backend's final flush and stop at finalization, bounded: a fatal signal can stop an
// application thread inside the CUDA driver, whose locks the flush then waits for until the
// process is killed (seen on an H200: SIGTERM in a launch loop, 20 s, no profile).
#pragma once

#include <chrono>

#include "intercept/backend.hpp"

namespace irf::inject {

/// Runs backend.flush() then backend.stop() on a thread of their own and waits at most `bound`:
/// true when both returned. Past the bound the backend is sealed (no sink call after), the
/// thread is left where it blocks, and false is returned, so that the write can go on. Without a
/// thread (none could be created) both run on the caller.
[[nodiscard]] bool flush_and_stop_within(intercept::Backend& backend,
                                         std::chrono::milliseconds bound) noexcept;

} // namespace irf::inject
