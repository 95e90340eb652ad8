// SPDX-License-Identifier: Apache-2.0
// Work split into contiguous ranges over a few threads (the tools' reading and writing of large
// profiles; docs/performance.md).
#pragma once

#include <cstddef>
#include <functional>

namespace irf::common {

/// Calls work(begin, end) once per worker on contiguous ranges that cover [0, count) in order,
/// with at most `threads` workers and at least `min_per_worker` items each (the calling thread
/// is one; a range whose thread cannot be started is done on the calling thread). After every
/// range has ended, the first exception any of them threw is rethrown.
void for_each_range(std::size_t count, unsigned threads, std::size_t min_per_worker,
                    const std::function<void(std::size_t begin, std::size_t end)>& work);

} // namespace irf::common
