// SPDX-License-Identifier: Apache-2.0
// libirf_entry.so's launch wrappers: one per entry point and stream variant, each keeping the
// driver's own pointer (entry_points.hpp describes the hooks they call).
#pragma once

#include <cstdint>

#include "intercept/cupti/entry_points.hpp"

namespace irf::entry {

/// A launch entry point and its stream variant: IrfEntryPoint * 2, + 1 for _ptsz.
enum class Variant : std::uint8_t {
    kernel,
    kernel_ptsz,
    kernel_ex,
    kernel_ex_ptsz,
    cooperative,
    cooperative_ptsz,
    graph,
    graph_ptsz,
};

/// Keeps `real` as a driver function of `variant` and returns the wrapper that calls it; up to
/// two different functions per variant are wrapped (each once), a third is returned unchanged.
[[nodiscard]] void* wrap_launch(Variant variant, void* real) noexcept;

/// irf_entry_register_hooks (entry_points.hpp).
[[nodiscard]] int register_hooks(const IrfEntryHooks* hooks) noexcept;

/// irf_entry_wrapped_entry_points (entry_points.hpp).
[[nodiscard]] std::uint64_t wrapped_count() noexcept;

} // namespace irf::entry
