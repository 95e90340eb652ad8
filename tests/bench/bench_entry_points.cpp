// SPDX-License-Identifier: Apache-2.0
// What libirf_entry.so (irf run --fast-intercept) adds to a launch, on the CPU: a fake libcuda's
// cuLaunchKernel called directly, through the wrapper the runtime would get from
// cuGetProcAddress_v2 without hooks, and with registered hooks that do nothing
// (docs/performance.md, "Launch entry-point wrapper"). libirf's own hook path is not in it:
// libirf does not register hooks yet (docs/tools.md). Re-runs itself with the library in
// LD_PRELOAD when started without it.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <benchmark/benchmark.h>

#include "intercept/cupti/entry_points.hpp"
#include "tests/integration/entry/fake_libcuda.hpp"

namespace {

using GetProcV2 = int (*)(const char*, void**, int, unsigned long long, void*);
using LaunchKernelFn = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, void*, void**, void**);

struct Fake {
    LaunchKernelFn direct = nullptr;
    LaunchKernelFn wrapped = nullptr;
    IrfEntryRegisterFn reg = nullptr;
};

Fake load() {
    Fake fake;
    void* cuda = dlopen(IRF_FAKE_LIBCUDA, RTLD_NOW | RTLD_LOCAL);
    if (cuda == nullptr) {
        return fake;
    }
    const auto own = reinterpret_cast<FakeCudaFunctionFn>(dlsym(cuda, "fake_cuda_function"));
    const auto get_proc = reinterpret_cast<GetProcV2>(dlsym(cuda, "cuGetProcAddress_v2"));
    void* wrapped = nullptr;
    if (own == nullptr || get_proc == nullptr ||
        get_proc("cuLaunchKernel", &wrapped, 4000, 1, nullptr) != 0) {
        return fake;
    }
    fake.direct = reinterpret_cast<LaunchKernelFn>(own("cuLaunchKernel"));
    fake.wrapped = reinterpret_cast<LaunchKernelFn>(wrapped);
    fake.reg = reinterpret_cast<IrfEntryRegisterFn>(dlsym(RTLD_DEFAULT, IRF_ENTRY_REGISTER_SYMBOL));
    return fake;
}

const Fake& fake() {
    static const Fake loaded = load();
    return loaded;
}

std::uint64_t nothing_before(const IrfEntryLaunch* launch) {
    benchmark::DoNotOptimize(launch);
    return 0;
}

void nothing_after(const IrfEntryLaunch* launch, std::uint64_t cookie, int result) {
    benchmark::DoNotOptimize(launch);
    benchmark::DoNotOptimize(cookie);
    benchmark::DoNotOptimize(result);
}

const IrfEntryHooks k_nothing = {IRF_ENTRY_HOOKS_VERSION, sizeof(IrfEntryHooks), &nothing_before,
                                 &nothing_after};

void launch_loop(benchmark::State& state, LaunchKernelFn launch) {
    void* params[] = {nullptr};
    auto* f = reinterpret_cast<void*>(0x1000);
    for (auto _ : state) {
        benchmark::DoNotOptimize(launch(f, 1, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
    }
}

void BM_DirectLaunch(benchmark::State& state) {
    launch_loop(state, fake().direct);
}
BENCHMARK(BM_DirectLaunch);

void BM_WrappedNoHooks(benchmark::State& state) {
    launch_loop(state, fake().wrapped);
}
BENCHMARK(BM_WrappedNoHooks);

void BM_WrappedEmptyHooks(benchmark::State& state) {
    if (fake().reg(&k_nothing) != 0) {
        state.SkipWithError("hooks refused");
        return;
    }
    launch_loop(state, fake().wrapped);
    (void)fake().reg(nullptr);
}
BENCHMARK(BM_WrappedEmptyHooks);

} // namespace

int main(int argc, char** argv) {
    if (dlsym(RTLD_DEFAULT, IRF_ENTRY_REGISTER_SYMBOL) == nullptr) {
        if (std::getenv("IRF_BENCH_ENTRY_REEXEC") != nullptr) {
            std::fprintf(stderr, "bench_entry_points: %s did not load\n", IRF_ENTRY_LIB);
            return 1;
        }
        setenv("IRF_BENCH_ENTRY_REEXEC", "1", 1);
        setenv("LD_PRELOAD", IRF_ENTRY_LIB, 1);
        setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 0);
        execv("/proc/self/exe", argv);
        std::perror("bench_entry_points: execv");
        return 1;
    }
    if (fake().direct == nullptr || fake().wrapped == nullptr || fake().reg == nullptr ||
        fake().wrapped == fake().direct) {
        std::fprintf(stderr, "bench_entry_points: the fake libcuda was not wrapped\n");
        return 1;
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
