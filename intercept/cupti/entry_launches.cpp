// SPDX-License-Identifier: Apache-2.0
// The launch wrappers of libirf_entry.so: no lock, no allocation, nothing thrown; errno as the
// driver left it. Without registered hooks each is one atomic load and the driver's call.
#include "intercept/cupti/entry_launches.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>

namespace irf::entry {
namespace {

constexpr std::size_t k_variants = 8;

using LaunchKernelFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, void*, void**, void**);
using LaunchKernelExFn = int (*)(const void*, void*, void**, void**);
using LaunchCooperativeFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, unsigned, void*, void**);
using GraphLaunchFn = int (*)(void*, void*);

std::atomic<void*> g_real[k_variants] = {};
std::atomic<const IrfEntryHooks*> g_hooks{nullptr};
std::atomic<std::uint64_t> g_wrapped{0};

template <class Fn> Fn real_of(Variant variant) noexcept {
    return reinterpret_cast<Fn>(
        g_real[static_cast<std::size_t>(variant)].load(std::memory_order_acquire));
}

constexpr bool per_thread(Variant variant) noexcept {
    return (static_cast<unsigned>(variant) & 1U) != 0;
}

IrfEntryLaunch launch_of(Variant variant) noexcept {
    IrfEntryLaunch launch{};
    launch.entry = static_cast<std::uint32_t>(variant) / 2;
    launch.per_thread = per_thread(variant) ? 1 : 0;
    return launch;
}

/// The hooks around `call`: errno as the application left it for the driver, and as the driver
/// left it for the application.
template <class Call>
int around(const IrfEntryHooks& hooks, const IrfEntryLaunch& launch, Call call) noexcept {
    const int saved = errno;
    const std::uint64_t cookie = hooks.before(&launch);
    errno = saved;
    const int result = call();
    const int after_call = errno;
    hooks.after(&launch, cookie, result);
    errno = after_call;
    return result;
}

template <Variant V>
int launch_kernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                  unsigned bz, unsigned shared, void* stream, void** params,
                  void** extra) noexcept {
    const auto real = real_of<LaunchKernelFn>(V);
    const IrfEntryHooks* hooks = g_hooks.load(std::memory_order_acquire);
    if (hooks == nullptr) {
        return real(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
    }
    IrfEntryLaunch launch = launch_of(V);
    launch.function = f;
    launch.stream = stream;
    launch.grid[0] = gx;
    launch.grid[1] = gy;
    launch.grid[2] = gz;
    launch.block[0] = bx;
    launch.block[1] = by;
    launch.block[2] = bz;
    launch.shared_bytes = shared;
    launch.kernel_params = params;
    launch.extra = extra;
    return around(*hooks, launch, [&]() noexcept {
        return real(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
    });
}

/// The head of CUlaunchConfig (cuda.h): the launch's shape and stream.
struct LaunchConfigHead {
    unsigned grid[3];
    unsigned block[3];
    unsigned shared_bytes;
    void* stream;
};

void fill_from_config(IrfEntryLaunch& launch, const void* config) noexcept {
    if (config == nullptr) {
        return;
    }
    LaunchConfigHead head;
    __builtin_memcpy(&head, config, sizeof head);
    for (int i = 0; i < 3; ++i) {
        launch.grid[i] = head.grid[i];
        launch.block[i] = head.block[i];
    }
    launch.shared_bytes = head.shared_bytes;
    launch.stream = head.stream;
}

template <Variant V>
int launch_kernel_ex(const void* config, void* f, void** params, void** extra) noexcept {
    const auto real = real_of<LaunchKernelExFn>(V);
    const IrfEntryHooks* hooks = g_hooks.load(std::memory_order_acquire);
    if (hooks == nullptr) {
        return real(config, f, params, extra);
    }
    IrfEntryLaunch launch = launch_of(V);
    launch.function = f;
    fill_from_config(launch, config);
    launch.kernel_params = params;
    launch.extra = extra;
    launch.config = config;
    return around(*hooks, launch, [&]() noexcept { return real(config, f, params, extra); });
}

template <Variant V>
int launch_cooperative(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                       unsigned bz, unsigned shared, void* stream, void** params) noexcept {
    const auto real = real_of<LaunchCooperativeFn>(V);
    const IrfEntryHooks* hooks = g_hooks.load(std::memory_order_acquire);
    if (hooks == nullptr) {
        return real(f, gx, gy, gz, bx, by, bz, shared, stream, params);
    }
    IrfEntryLaunch launch = launch_of(V);
    launch.function = f;
    launch.stream = stream;
    launch.grid[0] = gx;
    launch.grid[1] = gy;
    launch.grid[2] = gz;
    launch.block[0] = bx;
    launch.block[1] = by;
    launch.block[2] = bz;
    launch.shared_bytes = shared;
    launch.kernel_params = params;
    return around(*hooks, launch, [&]() noexcept {
        return real(f, gx, gy, gz, bx, by, bz, shared, stream, params);
    });
}

template <Variant V> int graph_launch(void* graph_exec, void* stream) noexcept {
    const auto real = real_of<GraphLaunchFn>(V);
    const IrfEntryHooks* hooks = g_hooks.load(std::memory_order_acquire);
    if (hooks == nullptr) {
        return real(graph_exec, stream);
    }
    IrfEntryLaunch launch = launch_of(V);
    launch.stream = stream;
    launch.graph_exec = graph_exec;
    return around(*hooks, launch, [&]() noexcept { return real(graph_exec, stream); });
}

template <class Fn> void* address(Fn fn) noexcept {
    return reinterpret_cast<void*>(fn);
}

void* const k_wrappers[k_variants] = {
    address(&launch_kernel<Variant::kernel>),
    address(&launch_kernel<Variant::kernel_ptsz>),
    address(&launch_kernel_ex<Variant::kernel_ex>),
    address(&launch_kernel_ex<Variant::kernel_ex_ptsz>),
    address(&launch_cooperative<Variant::cooperative>),
    address(&launch_cooperative<Variant::cooperative_ptsz>),
    address(&graph_launch<Variant::graph>),
    address(&graph_launch<Variant::graph_ptsz>),
};

} // namespace

void* wrap_launch(Variant variant, void* real) noexcept {
    const auto index = static_cast<std::size_t>(variant);
    if (index >= k_variants || real == nullptr) {
        return real;
    }
    void* expected = nullptr;
    if (g_real[index].compare_exchange_strong(expected, real, std::memory_order_acq_rel) ||
        expected == real) {
        g_wrapped.fetch_add(1, std::memory_order_relaxed);
        return k_wrappers[index];
    }
    return real;
}

int register_hooks(const IrfEntryHooks* hooks) noexcept {
    if (hooks == nullptr) {
        g_hooks.store(nullptr, std::memory_order_release);
        return 0;
    }
    if (hooks->version != IRF_ENTRY_HOOKS_VERSION || hooks->size != sizeof(IrfEntryHooks) ||
        hooks->before == nullptr || hooks->after == nullptr) {
        return -1;
    }
    g_hooks.store(hooks, std::memory_order_release);
    return 0;
}

std::uint64_t wrapped_count() noexcept {
    return g_wrapped.load(std::memory_order_relaxed);
}

} // namespace irf::entry
