// SPDX-License-Identifier: Apache-2.0
// Resolves and calls the fake driver's launch entry points as the CUDA runtime does: dlopen,
// dlsym of cuGetProcAddress_v2, then cuGetProcAddress for each name (legacy and per-thread
// flags, cuGetProcAddress itself, names it does not know). Run by test_entry_points with and
// without libirf_entry.so preloaded; prints "FAIL: ..." and exits 1 on the first difference.
// Usage: entry_client MODE FAKE_LIBCUDA, MODE one of direct, passthrough, hooked, version.
#include <dlfcn.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "intercept/cupti/entry_points.hpp"
#include "tests/integration/entry/fake_libcuda.hpp"

namespace {

using GetProcV1 = int (*)(const char*, void**, int, unsigned long long);
using GetProcV2 = int (*)(const char*, void**, int, unsigned long long, void*);
using LaunchKernelFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, void*, void**, void**);
using LaunchKernelExFn = int (*)(const void*, void*, void**, void**);
using LaunchCooperativeFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, unsigned, void*, void**);
using GraphLaunchFn = int (*)(void*, void*);

void check(bool ok, const std::string& what) {
    if (!ok) {
        std::printf("FAIL: %s\n", what.c_str());
        std::exit(1);
    }
}

/// What the test hook saw: each before and after, in order.
struct Seen {
    bool after;
    IrfEntryLaunch launch;
    int result;
    int fake_calls; ///< calls the fake had recorded when the hook ran
};
std::vector<Seen> g_seen;
FakeCudaCallsFn g_fake_calls = nullptr;

int fake_count() {
    int count = 0;
    g_fake_calls(&count);
    return count;
}

std::uint64_t test_before(const IrfEntryLaunch* launch) {
    g_seen.push_back({false, *launch, 0, fake_count()});
    errno = 77; // the wrapper must hide what a hook does to errno
    return 4242 + g_seen.size();
}

void test_after(const IrfEntryLaunch* launch, std::uint64_t cookie, int result) {
    check(!g_seen.empty() && cookie == 4242 + g_seen.size(), "after got before's cookie");
    g_seen.push_back({true, *launch, result, fake_count()});
    errno = 78;
}

const IrfEntryHooks k_hooks = {IRF_ENTRY_HOOKS_VERSION, sizeof(IrfEntryHooks), &test_before,
                               &test_after};

template <class Fn> Fn symbol(void* handle, const char* name) {
    return reinterpret_cast<Fn>(dlsym(handle, name));
}

/// One resolution through cuGetProcAddress_v2, checked against the fake's own pointer.
void* resolve(GetProcV2 get_proc, const char* name, int version, unsigned long long flags,
              void* fake_own, bool wrapped) {
    void* pfn = nullptr;
    int status = -1;
    check(get_proc(name, &pfn, version, flags, &status) == 0 && status == 0,
          std::string("resolves ") + name);
    check(wrapped ? pfn != fake_own && pfn != nullptr : pfn == fake_own,
          std::string(name) + (wrapped ? " handed out wrapped" : " handed out untouched"));
    return pfn;
}

} // namespace

int main(int argc, char** argv) {
    check(argc == 3, "usage: entry_client MODE FAKE_LIBCUDA");
    const std::string mode = argv[1];
    const bool preloaded = mode != "direct";
    void* cuda = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (cuda == nullptr) {
        check(false, std::string("dlopen: ") + dlerror());
    }
    g_fake_calls = symbol<FakeCudaCallsFn>(cuda, "fake_cuda_calls");
    const auto fake = symbol<FakeCudaFunctionFn>(cuda, "fake_cuda_function");
    check(g_fake_calls != nullptr && fake != nullptr, "the fake's own symbols pass through");
    const auto reg = symbol<IrfEntryRegisterFn>(RTLD_DEFAULT, IRF_ENTRY_REGISTER_SYMBOL);
    check((reg != nullptr) == preloaded, "libirf_entry.so is there exactly when preloaded");
    if (preloaded) {
        // RTLD_NEXT stays relative to the caller: from here, the next definition is the
        // preloaded library's own (it would be none if resolved from inside the library).
        check(dlsym(RTLD_NEXT, IRF_ENTRY_REGISTER_SYMBOL) == reinterpret_cast<void*>(reg),
              "dlsym(RTLD_NEXT) keeps the caller's place");
    }
    const auto get_proc = symbol<GetProcV2>(cuda, "cuGetProcAddress_v2");
    check(get_proc != nullptr, "cuGetProcAddress_v2 found");
    check((reinterpret_cast<void*>(get_proc) != fake("cuGetProcAddress_v2")) == preloaded,
          "cuGetProcAddress_v2 wrapped exactly when preloaded");
    if (mode == "hooked") {
        check(reg(&k_hooks) == 0, "hooks registered");
    }
    if (mode == "version") {
        IrfEntryHooks wrong = k_hooks;
        wrong.version = IRF_ENTRY_HOOKS_VERSION + 1;
        check(reg(&wrong) == -1, "another version refused");
        wrong = k_hooks;
        wrong.size = sizeof(IrfEntryHooks) + 8;
        check(reg(&wrong) == -1, "another size refused");
        wrong = k_hooks;
        wrong.after = nullptr;
        check(reg(&wrong) == -1, "a null hook refused");
    }
    void* unknown = resolve(get_proc, "cuCtxGetCurrent", 4000, 1, fake("cuCtxGetCurrent"), false);
    check(unknown == fake("cuCtxGetCurrent"), "an unknown symbol gets the fake's own pointer");
    void* missing = reinterpret_cast<void*>(&check);
    check(get_proc("cuNoSuchEntry", &missing, 12000, 0, nullptr) == 500 && missing == nullptr,
          "a missing symbol fails as the driver says");
    // The runtime also asks cuGetProcAddress for itself: the answer must stay wrapped.
    const auto self = reinterpret_cast<GetProcV2>(
        resolve(get_proc, "cuGetProcAddress", 12000, 0, fake("cuGetProcAddress_v2"), preloaded));
    const auto v1 = symbol<GetProcV1>(cuda, "cuGetProcAddress");
    check((reinterpret_cast<void*>(v1) != fake("cuGetProcAddress")) == preloaded,
          "cuGetProcAddress (v1) wrapped exactly when preloaded");

    const auto kernel = reinterpret_cast<LaunchKernelFn>(
        resolve(get_proc, "cuLaunchKernel", 4000, 1, fake("cuLaunchKernel"), preloaded));
    const auto kernel_ptsz = reinterpret_cast<LaunchKernelFn>(
        resolve(self, "cuLaunchKernel", 7000, 2, fake("cuLaunchKernel_ptsz"), preloaded));
    const auto kernel_ex = reinterpret_cast<LaunchKernelExFn>(
        resolve(get_proc, "cuLaunchKernelEx", 11060, 0, fake("cuLaunchKernelEx"), preloaded));
    const auto cooperative = reinterpret_cast<LaunchCooperativeFn>(
        resolve(get_proc, "cuLaunchCooperativeKernel", 9000, 2,
                fake("cuLaunchCooperativeKernel_ptsz"), preloaded));
    const auto graph = reinterpret_cast<GraphLaunchFn>(
        resolve(get_proc, "cuGraphLaunch", 10000, 1, fake("cuGraphLaunch"), preloaded));
    void* through_v1 = nullptr;
    check(v1("cuGraphLaunch", &through_v1, 10000, 2) == 0, "cuGetProcAddress (v1) resolves");
    check((through_v1 != fake("cuGraphLaunch_ptsz")) == preloaded, "v1 wraps as v2 does");
    const auto graph_ptsz = reinterpret_cast<GraphLaunchFn>(through_v1);
    // Launch entry points dlsym'd by their own names, as CUDA 13's runtime also does.
    const auto kernel_ptsz_by_name = symbol<LaunchKernelFn>(cuda, "cuLaunchKernel_ptsz");
    const auto graph_by_name = symbol<GraphLaunchFn>(cuda, "cuGraphLaunch");
    check((reinterpret_cast<void*>(kernel_ptsz_by_name) != fake("export:cuLaunchKernel_ptsz")) ==
                  preloaded &&
              (reinterpret_cast<void*>(graph_by_name) != fake("export:cuGraphLaunch")) == preloaded,
          "launch entry points dlsym'd by name wrapped exactly when preloaded");
    check(symbol<void*>(cuda, "cuLaunchNoSuchThing") == nullptr, "a missing name stays missing");
    if (preloaded) {
        const auto wrapped = symbol<IrfEntryWrappedFn>(RTLD_DEFAULT, IRF_ENTRY_WRAPPED_SYMBOL);
        check(wrapped != nullptr && wrapped() == 8, "eight driver launch functions wrapped");
    }

    // The launches, each with its own arguments; CUlaunchConfig's head as cuda.h lays it out.
    int params_a = 0;
    void* params[] = {&params_a};
    void* extra[] = {nullptr};
    auto* f = reinterpret_cast<void*>(0x1000);
    auto* s = reinterpret_cast<void*>(0x2000);
    struct {
        unsigned grid[3], block[3], shared;
        void* stream;
        void* attrs;
        unsigned count;
    } config = {{9, 8, 7}, {6, 5, 4}, 300, s, nullptr, 0};
    std::vector<int> results;
    const auto call = [&](auto fn) {
        errno = 5;
        const int result = fn();
        results.push_back(result);
        check(errno == 2000 + static_cast<int>(results.size()) - 1, "errno as the driver left it");
    };
    call([&] { return kernel(f, 1, 2, 3, 4, 5, 6, 100, s, params, extra); });
    call([&] { return kernel_ptsz(f, 2, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr); });
    call([&] { return kernel_ex(&config, f, params, extra); });
    call([&] { return cooperative(f, 3, 1, 1, 64, 1, 1, 8, s, params); });
    call([&] { return graph(reinterpret_cast<void*>(0x3000), s); });
    call([&] { return graph_ptsz(reinterpret_cast<void*>(0x3001), nullptr); });
    call([&] { return kernel_ptsz_by_name(f, 7, 1, 1, 32, 1, 1, 0, s, params, nullptr); });
    call([&] { return graph_by_name(reinterpret_cast<void*>(0x3002), s); });
    int count = 0;
    const FakeCudaCall* calls = g_fake_calls(&count);
    check(count == 8, "each launch reached the fake once");
    const std::uint32_t entries[] = {0, 0, 1, 2, 3, 3, 0, 3};
    const std::uint32_t ptsz[] = {0, 1, 0, 1, 0, 1, 1, 0};
    for (int i = 0; i < count; ++i) {
        check(calls[i].entry == entries[i] && calls[i].per_thread == ptsz[i],
              "call " + std::to_string(i) + " reached the right variant");
        check(calls[i].errno_seen == 5, "the driver sees the caller's errno");
        check(results[static_cast<std::size_t>(i)] == 1000 + i, "the fake's result returned");
    }
    check(calls[0].grid[2] == 3 && calls[0].block[0] == 4 && calls[0].shared_bytes == 100 &&
              calls[0].stream == s && calls[0].kernel_params == params && calls[0].extra == extra,
          "arguments unchanged");
    check(calls[2].config == &config && calls[5].graph_exec == reinterpret_cast<void*>(0x3001),
          "config and graph unchanged");
    if (mode != "hooked") {
        check(g_seen.empty(), "no hook runs without a registration");
        std::printf("ok %s\n", mode.c_str());
        return 0;
    }
    check(g_seen.size() == 16, "each launch seen once before and once after");
    for (int i = 0; i < count; ++i) {
        const Seen& before = g_seen[static_cast<std::size_t>(2 * i)];
        const Seen& after = g_seen[static_cast<std::size_t>(2 * i + 1)];
        const std::string which = "launch " + std::to_string(i);
        check(!before.after && after.after, which + ": before, then after");
        check(before.fake_calls == i && after.fake_calls == i + 1,
              which + ": the real function runs once, between the hooks");
        check(after.result == 1000 + i, which + ": after gets the driver's result");
        const IrfEntryLaunch& l = before.launch;
        check(l.entry == calls[i].entry && l.per_thread == calls[i].per_thread &&
                  l.function == calls[i].function && l.kernel_params == calls[i].kernel_params &&
                  l.graph_exec == calls[i].graph_exec,
              which + ": the hook sees the call's arguments");
    }
    const IrfEntryLaunch& ex = g_seen[4].launch;
    check(ex.grid[0] == 9 && ex.block[2] == 4 && ex.shared_bytes == 300 && ex.stream == s &&
              ex.config == &config,
          "cuLaunchKernelEx's shape and stream read from its config");
    check(g_seen[0].launch.grid[1] == 2 && g_seen[0].launch.stream == s &&
              g_seen[0].launch.extra == extra,
          "cuLaunchKernel's shape, stream and extra");
    check(reg(nullptr) == 0, "unregistered");
    call([&] { return kernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, extra); });
    check(g_seen.size() == 16, "no hook runs once unregistered");
    std::printf("ok %s\n", mode.c_str());
    return 0;
}
