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
// Two driver functions per variant: cuGetProcAddress and a plain dlsym of the same name need not
// hand out the same pointer (the runtime uses both, docs/tools.md). A third passes through.
constexpr std::size_t k_per_variant = 2;
constexpr std::size_t k_slots = k_variants * k_per_variant;

using LaunchKernelFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, void*, void**, void**);
using LaunchKernelExFn = int (*)(const void*, void*, void**, void**);
using LaunchCooperativeFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, unsigned, void*, void**);
using GraphLaunchFn = int (*)(void*, void*);

std::atomic<void*> g_real[k_slots] = {};
std::atomic<const IrfEntryHooks*> g_hooks{nullptr};
std::atomic<std::uint64_t> g_wrapped{0};

template <class Fn> Fn real_of(std::size_t slot) noexcept {
    return reinterpret_cast<Fn>(g_real[slot].load(std::memory_order_acquire));
}

constexpr Variant variant_of_slot(std::size_t slot) noexcept {
    return static_cast<Variant>(slot / k_per_variant);
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

/// What the hooks see of a launch given its shape as arguments (cuLaunchKernel, cooperative).
IrfEntryLaunch launch_with_shape(Variant variant, void* f, const unsigned (&grid)[3],
                                 const unsigned (&block)[3], unsigned shared,
                                 void* stream) noexcept {
    IrfEntryLaunch launch = launch_of(variant);
    launch.function = f;
    launch.stream = stream;
    for (int i = 0; i < 3; ++i) {
        launch.grid[i] = grid[i];
        launch.block[i] = block[i];
    }
    launch.shared_bytes = shared;
    return launch;
}

template <std::size_t S>
int launch_kernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                  unsigned bz, unsigned shared, void* stream, void** params,
                  void** extra) noexcept {
    const auto real = real_of<LaunchKernelFn>(S);
    const IrfEntryHooks* hooks = g_hooks.load(std::memory_order_acquire);
    if (hooks == nullptr) {
        return real(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
    }
    IrfEntryLaunch launch =
        launch_with_shape(variant_of_slot(S), f, {gx, gy, gz}, {bx, by, bz}, shared, stream);
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

template <std::size_t S>
int launch_kernel_ex(const void* config, void* f, void** params, void** extra) noexcept {
    const auto real = real_of<LaunchKernelExFn>(S);
    const IrfEntryHooks* hooks = g_hooks.load(std::memory_order_acquire);
    if (hooks == nullptr) {
        return real(config, f, params, extra);
    }
    IrfEntryLaunch launch = launch_of(variant_of_slot(S));
    launch.function = f;
    fill_from_config(launch, config);
    launch.kernel_params = params;
    launch.extra = extra;
    launch.config = config;
    return around(*hooks, launch, [&]() noexcept { return real(config, f, params, extra); });
}

template <std::size_t S>
int launch_cooperative(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                       unsigned bz, unsigned shared, void* stream, void** params) noexcept {
    const auto real = real_of<LaunchCooperativeFn>(S);
    const IrfEntryHooks* hooks = g_hooks.load(std::memory_order_acquire);
    if (hooks == nullptr) {
        return real(f, gx, gy, gz, bx, by, bz, shared, stream, params);
    }
    IrfEntryLaunch launch =
        launch_with_shape(variant_of_slot(S), f, {gx, gy, gz}, {bx, by, bz}, shared, stream);
    launch.kernel_params = params;
    return around(*hooks, launch, [&]() noexcept {
        return real(f, gx, gy, gz, bx, by, bz, shared, stream, params);
    });
}

template <std::size_t S> int graph_launch(void* graph_exec, void* stream) noexcept {
    const auto real = real_of<GraphLaunchFn>(S);
    const IrfEntryHooks* hooks = g_hooks.load(std::memory_order_acquire);
    if (hooks == nullptr) {
        return real(graph_exec, stream);
    }
    IrfEntryLaunch launch = launch_of(variant_of_slot(S));
    launch.stream = stream;
    launch.graph_exec = graph_exec;
    return around(*hooks, launch, [&]() noexcept { return real(graph_exec, stream); });
}

template <class Fn> void* address(Fn fn) noexcept {
    return reinterpret_cast<void*>(fn);
}

/// The wrapper of each slot, in slot order (variant * k_per_variant + n).
void* const k_wrappers[k_slots] = {
    address(&launch_kernel<0>),       address(&launch_kernel<1>),
    address(&launch_kernel<2>),       address(&launch_kernel<3>),
    address(&launch_kernel_ex<4>),    address(&launch_kernel_ex<5>),
    address(&launch_kernel_ex<6>),    address(&launch_kernel_ex<7>),
    address(&launch_cooperative<8>),  address(&launch_cooperative<9>),
    address(&launch_cooperative<10>), address(&launch_cooperative<11>),
    address(&graph_launch<12>),       address(&graph_launch<13>),
    address(&graph_launch<14>),       address(&graph_launch<15>),
};

} // namespace

void* wrap_launch(Variant variant, void* real) noexcept {
    const auto index = static_cast<std::size_t>(variant);
    if (index >= k_variants || real == nullptr) {
        return real;
    }
    for (std::size_t slot = index * k_per_variant; slot < (index + 1) * k_per_variant; ++slot) {
        void* expected = nullptr;
        if (g_real[slot].compare_exchange_strong(expected, real, std::memory_order_acq_rel)) {
            g_wrapped.fetch_add(1, std::memory_order_relaxed);
            return k_wrappers[slot];
        }
        if (expected == real) {
            return k_wrappers[slot];
        }
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
