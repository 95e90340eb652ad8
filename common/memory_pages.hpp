// SPDX-License-Identifier: Apache-2.0
// Handing the pages of a buffer already read back to the system while it is still allocated.
#pragma once

namespace irf::common {

/// Gives the whole pages in [begin, end) back to the system (MADV_DONTNEED): they stop counting
/// in the process's memory and read as zeros afterwards, so the bytes there must never be read
/// again. Bytes of a page partly outside the range are kept. A no-op where unsupported.
void release_pages(char* begin, char* end) noexcept;

} // namespace irf::common
