// SPDX-License-Identifier: Apache-2.0
// Handing the pages of a buffer already read back to the system.
#include "common/memory_pages.hpp"

#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

namespace irf::common {

void release_pages(char* begin, char* end) noexcept {
    static const long s_page = sysconf(_SC_PAGESIZE);
    if (s_page <= 0 || begin >= end) {
        return;
    }
    const auto page = static_cast<std::uintptr_t>(s_page);
    const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page;
    const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) / page * page;
    if (first < last) {
        // Advice only: on failure the pages simply stay.
        (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
    }
}

} // namespace irf::common
