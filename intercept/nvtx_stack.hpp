// SPDX-License-Identifier: Apache-2.0
// NVTX range capture without CUDA: a process-wide tree of range paths (interned once, read
// lock-free) and a per-thread stack of path ids. A push or pop on a path seen before takes no lock
// and allocates nothing, so that ranges around every PyTorch operator cost little
// (docs/regions.md, docs/performance.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace irf::intercept::nvtx {

/// Path id of "outside every range".
inline constexpr std::uint32_t k_root = 0;

/// Domain index of NVTX's default domain.
inline constexpr std::uint32_t k_default_domain = 0;

/// Ranges deeper than this on one thread are counted but attributed to the deepest kept level.
inline constexpr int k_max_depth = 128;

/// Distinct range paths kept; further new paths are attributed to their parent. At 2^20 a
/// million distinct names made the exit take 39 s and 6.4 GB (issue #39 item 6); at 2^15
/// PyTorch-like paths cost 292 MiB at exit; at 2^14 the exit adds about 0.6 s of CPU and
/// 170 MiB (tests/bench/nvtx_path_cap.py, docs/performance.md). emit_nvtx's per-call numbers
/// (seq, op_id, sizes) are left out of the names (push), so a training loop's paths stop
/// growing after its first step.
inline constexpr std::uint32_t k_max_paths = 1u << 14;

/// Start/end ranges tracked while open; starts beyond this are counted and not tracked.
inline constexpr std::size_t k_max_open_ranges = 4096;

/// Counts of misuse, for the profile's warnings.
struct NvtxStats {
    std::uint64_t unbalanced_pops = 0; ///< pops on a thread with no open range
    std::uint64_t too_deep = 0;        ///< pushes beyond k_max_depth
    std::uint64_t paths_dropped = 0;   ///< new paths beyond k_max_paths (or out of memory)
    std::uint64_t open_dropped = 0;    ///< start/end ranges beyond k_max_open_ranges
};

/// Pushes range `name` (less emit_nvtx's per-call decorations, model::plain_range_view) of
/// `domain` on the calling thread; returns the new depth - 1 (NVTX's zero-based level). Lock-free
/// and allocation-free once this path has been seen.
int push(std::uint32_t domain, std::string_view name) noexcept;

/// Pops the calling thread's innermost range; returns its level, or -1 when none is open.
int pop() noexcept;

/// Pops the innermost open range of `domain` (NVTX keeps one stack per domain), even below
/// another domain's ranges; returns its level in that domain, or -1 when it has none open.
int pop_domain(std::uint32_t domain) noexcept;

/// Test seam: runs `fn` while holding the lock of the registry of paths, domains and ranges.
void with_registry_locked_for_test(const std::function<void()>& fn);

/// The calling thread's current path id (k_root outside every range).
[[nodiscard]] std::uint32_t current_path() noexcept;

/// The calling thread's open-range depth.
[[nodiscard]] int depth() noexcept;

/// Replaces the calling thread's stack by `names` in the default domain (the fake backend's
/// "nvtx" launch field: a thread's stack at launch).
void set_stack(const std::vector<std::string>& names) noexcept;

/// "outer/inner" ("domain@name" for a range of a named domain, '/' and '\' inside a name
/// escaped as "\/" and "\\"); "" for k_root.
[[nodiscard]] std::string path_name(std::uint32_t path);

/// Range labels of `path`, outermost first, with their domain names ("" = default domain).
struct PathElement {
    std::string domain;
    std::string name;
};
/// Elements of `path`, outermost first.
[[nodiscard]] std::vector<PathElement> path_elements(std::uint32_t path);

/// A per-path word the NVTX filter caches its answer in (0 = nothing cached); nullptr for k_root.
[[nodiscard]] std::atomic<std::uint32_t>* path_cache(std::uint32_t path) noexcept;

/// Registers (or finds) a named domain; returns its index (never k_default_domain for a name).
std::uint32_t domain(std::string_view name) noexcept;

/// A registered string's stable copy (nvtxDomainRegisterStringA); nullptr on allocation failure.
const std::string* register_string(std::string_view text) noexcept;

/// Opens a process-wide start/end range; returns its id (never 0; 0 on allocation failure).
std::uint64_t start_range(std::uint32_t domain, std::string_view name) noexcept;

/// Closes a start/end range (any thread); unknown ids are ignored.
void end_range(std::uint64_t id) noexcept;

/// Labels ("domain@name" or "name") of the start/end ranges open now.
[[nodiscard]] std::vector<std::string> open_ranges();

/// Misuse counts so far.
[[nodiscard]] NvtxStats stats() noexcept;

} // namespace irf::intercept::nvtx
