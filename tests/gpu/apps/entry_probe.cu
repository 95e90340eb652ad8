// SPDX-License-Identifier: Apache-2.0
// Does libirf_entry.so see the CUDA runtime's launches on a real driver (irf run
// --fast-intercept, docs/tools.md)? Run with LD_PRELOAD=libirf_entry.so: registers counting
// hooks, launches through <<<>>>, cudaStreamPerThread, cudaLaunchKernelEx,
// cudaLaunchCooperativeKernel and a graph, and checks each was seen once by the hooks, with its
// grid, around a call that succeeded. Prints one line per hooked launch and a summary; exit 0
// when all were seen, 1 when not, 2 without the library, 77 without a device.
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "intercept/cupti/entry_points.hpp"
#include "ka_common.cuh"

namespace {

constexpr const char* k_app = "irf-entry-probe";

/// Adds its grid's width once per launch (one thread of one block): 1 + 2 + 3 + 4 + 5 = 15 over
/// the five launches that run. (Every block adding it, as before, sums the squares: the H200
/// read 55.)
__global__ void probe_kernel(unsigned* out) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        atomicAdd(out, gridDim.x);
    }
}

struct Seen {
    std::uint32_t entry;
    std::uint32_t per_thread;
    std::uint32_t grid;
    int result;
};
std::mutex g_mutex;
std::vector<Seen> g_seen;
std::atomic<int> g_open{0};

std::uint64_t before(const IrfEntryLaunch* launch) {
    g_open.fetch_add(1);
    return launch->grid[0];
}

void after(const IrfEntryLaunch* launch, std::uint64_t cookie, int result) {
    g_open.fetch_sub(1);
    std::lock_guard<std::mutex> lock(g_mutex);
    g_seen.push_back(
        {launch->entry, launch->per_thread, static_cast<std::uint32_t>(cookie), result});
}

const IrfEntryHooks k_hooks = {IRF_ENTRY_HOOKS_VERSION, sizeof(IrfEntryHooks), &before, &after};

} // namespace

int main() {
    ka::require_device(k_app);
    const auto reg =
        reinterpret_cast<IrfEntryRegisterFn>(dlsym(RTLD_DEFAULT, IRF_ENTRY_REGISTER_SYMBOL));
    if (reg == nullptr || reg(&k_hooks) != 0) {
        std::printf("%s: libirf_entry.so not preloaded (or refused the hooks)\n", k_app);
        return ka::k_exit_usage;
    }
    unsigned* out = nullptr;
    ka::check(cudaMalloc(&out, sizeof(unsigned)), "cudaMalloc", k_app);
    ka::check(cudaMemset(out, 0, sizeof(unsigned)), "cudaMemset", k_app);
    // Grids 1..5 tell the launches apart: each path once.
    probe_kernel<<<1, 32>>>(out);
    probe_kernel<<<2, 32, 0, cudaStreamPerThread>>>(out);
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(3);
    config.blockDim = dim3(32);
    ka::check(cudaLaunchKernelEx(&config, probe_kernel, out), "cudaLaunchKernelEx", k_app);
    void* args[] = {&out};
    ka::check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&probe_kernel), dim3(4),
                                          dim3(32), args, 0, nullptr),
              "cudaLaunchCooperativeKernel", k_app);
    cudaStream_t stream = nullptr;
    ka::check(cudaStreamCreate(&stream), "cudaStreamCreate", k_app);
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    ka::check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "capture", k_app);
    probe_kernel<<<5, 32, 0, stream>>>(out); // captured: the wrapper sees it, nothing runs
    ka::check(cudaStreamEndCapture(stream, &graph), "end capture", k_app);
    ka::check(cudaGraphInstantiate(&exec, graph, 0), "instantiate", k_app);
    ka::check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch", k_app);
    ka::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", k_app);
    unsigned total = 0;
    ka::check(cudaMemcpy(&total, out, sizeof total, cudaMemcpyDeviceToHost), "copy", k_app);
    static_cast<void>(reg(nullptr));
    const auto wrapped =
        reinterpret_cast<IrfEntryWrappedFn>(dlsym(RTLD_DEFAULT, IRF_ENTRY_WRAPPED_SYMBOL));
    bool grids[6] = {};
    int graphs = 0;
    bool ok = total == 1 + 2 + 3 + 4 + 5 && g_open.load() == 0;
    for (const Seen& s : g_seen) {
        std::printf("seen entry=%u per_thread=%u grid=%u result=%d\n", s.entry, s.per_thread,
                    s.grid, s.result);
        ok = ok && s.result == 0;
        if (s.entry == IRF_ENTRY_GRAPH_LAUNCH) {
            ++graphs;
        } else if (s.grid >= 1 && s.grid <= 5) {
            ok = ok && !grids[s.grid];
            grids[s.grid] = true;
        }
    }
    for (int g = 1; g <= 5; ++g) {
        ok = ok && grids[g];
    }
    ok = ok && graphs == 1;
    std::printf("%s: device total %u (15 expected), %zu launches hooked (6 expected), %llu entry "
                "points wrapped: %s\n",
                k_app, total, g_seen.size(),
                static_cast<unsigned long long>(wrapped != nullptr ? wrapped() : 0),
                ok ? "ok" : "FAIL");
    return ok ? 0 : ka::k_exit_wrong;
}
