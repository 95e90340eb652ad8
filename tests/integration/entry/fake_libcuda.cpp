// SPDX-License-Identifier: Apache-2.0
// A fake libcuda for the libirf_entry.so tests: cuGetProcAddress(_v2) hands out its own launch
// functions, which record their arguments (fake_libcuda.hpp). Driver types as their ABI
// equivalents (CUresult as int, handles as void*).
#include <cerrno>
#include <cstring>

#include "intercept/cupti/entry_points.hpp"
#include "tests/integration/entry/fake_libcuda.hpp"

extern "C" {
__attribute__((visibility("default"))) int cuGetProcAddress(const char* symbol, void** pfn,
                                                            int version, unsigned long long flags);
__attribute__((visibility("default"))) int cuGetProcAddress_v2(const char* symbol, void** pfn,
                                                               int version,
                                                               unsigned long long flags,
                                                               void* status);
}

namespace {

constexpr int k_max_calls = 64;
constexpr int k_not_found = 500; // CUDA_ERROR_NOT_FOUND
FakeCudaCall g_calls[k_max_calls];
int g_count = 0;

int record(FakeCudaCall call) {
    call.errno_seen = errno;
    const int index = g_count < k_max_calls ? g_count++ : k_max_calls - 1;
    call.result = 1000 + index;
    g_calls[index] = call;
    errno = 2000 + index;
    return call.result;
}

template <std::uint32_t PerThread>
int launch_kernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                  unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
    return record({IRF_ENTRY_LAUNCH_KERNEL,
                   PerThread,
                   f,
                   stream,
                   {gx, gy, gz},
                   {bx, by, bz},
                   shared,
                   params,
                   extra,
                   nullptr,
                   nullptr,
                   0,
                   0});
}

template <std::uint32_t PerThread>
int launch_kernel_ex(const void* config, void* f, void** params, void** extra) {
    return record({IRF_ENTRY_LAUNCH_KERNEL_EX,
                   PerThread,
                   f,
                   nullptr,
                   {},
                   {},
                   0,
                   params,
                   extra,
                   config,
                   nullptr,
                   0,
                   0});
}

template <std::uint32_t PerThread>
int launch_cooperative(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                       unsigned bz, unsigned shared, void* stream, void** params) {
    return record({IRF_ENTRY_LAUNCH_COOPERATIVE,
                   PerThread,
                   f,
                   stream,
                   {gx, gy, gz},
                   {bx, by, bz},
                   shared,
                   params,
                   nullptr,
                   nullptr,
                   nullptr,
                   0,
                   0});
}

template <std::uint32_t PerThread> int graph_launch(void* graph_exec, void* stream) {
    return record({IRF_ENTRY_GRAPH_LAUNCH,
                   PerThread,
                   nullptr,
                   stream,
                   {},
                   {},
                   0,
                   nullptr,
                   nullptr,
                   nullptr,
                   graph_exec,
                   0,
                   0});
}

int ctx_get_current(void** context) {
    *context = nullptr;
    return 0;
}

int get_proc_v1(const char* symbol, void** pfn, int version, unsigned long long flags);
int get_proc_v2(const char* symbol, void** pfn, int version, unsigned long long flags,
                void* status);

template <class Fn> void* address(Fn fn) {
    return reinterpret_cast<void*>(fn);
}

struct Entry {
    const char* name;
    void* legacy;
    void* per_thread;
};

const Entry k_entries[] = {
    {"cuLaunchKernel", address(&launch_kernel<0>), address(&launch_kernel<1>)},
    {"cuLaunchKernelEx", address(&launch_kernel_ex<0>), address(&launch_kernel_ex<1>)},
    {"cuLaunchCooperativeKernel", address(&launch_cooperative<0>), address(&launch_cooperative<1>)},
    {"cuGraphLaunch", address(&graph_launch<0>), address(&graph_launch<1>)},
    {"cuCtxGetCurrent", address(&ctx_get_current), address(&ctx_get_current)},
};

/// As the driver: CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM (2) selects the _ptsz function,
/// anything else the legacy one; cuGetProcAddress has the _v2 ABI from CUDA 12.0.
int lookup(const char* symbol, void** pfn, int version, unsigned long long flags) {
    *pfn = nullptr;
    if (std::strcmp(symbol, "cuGetProcAddress") == 0) {
        *pfn = version >= 12000 ? address(&cuGetProcAddress_v2) : address(&cuGetProcAddress);
        return 0;
    }
    for (const Entry& entry : k_entries) {
        if (std::strcmp(symbol, entry.name) == 0) {
            *pfn = (flags & 2U) != 0 ? entry.per_thread : entry.legacy;
            return 0;
        }
    }
    return k_not_found;
}

int get_proc_v1(const char* symbol, void** pfn, int version, unsigned long long flags) {
    return lookup(symbol, pfn, version, flags);
}

int get_proc_v2(const char* symbol, void** pfn, int version, unsigned long long flags,
                void* status) {
    const int result = lookup(symbol, pfn, version, flags);
    if (status != nullptr) {
        *static_cast<int*>(status) = result == 0 ? 0 : 1; // CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
    }
    return result;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) int cuGetProcAddress(const char* symbol, void** pfn,
                                                            int version, unsigned long long flags) {
    return get_proc_v1(symbol, pfn, version, flags);
}

__attribute__((visibility("default"))) int cuGetProcAddress_v2(const char* symbol, void** pfn,
                                                               int version,
                                                               unsigned long long flags,
                                                               void* status) {
    return get_proc_v2(symbol, pfn, version, flags, status);
}

// Launch entry points by their own names, as a runtime may dlsym them: functions of their own,
// not those cuGetProcAddress hands out (the wrapper must keep both).
__attribute__((visibility("default"))) int
cuLaunchKernel_ptsz(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                    unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
    return launch_kernel<1>(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
}

__attribute__((visibility("default"))) int cuGraphLaunch(void* graph_exec, void* stream) {
    return graph_launch<0>(graph_exec, stream);
}

__attribute__((visibility("default"))) const FakeCudaCall* fake_cuda_calls(int* count) {
    *count = g_count;
    return g_calls;
}

__attribute__((visibility("default"))) void* fake_cuda_function(const char* name) {
    if (std::strcmp(name, "export:cuLaunchKernel_ptsz") == 0) {
        return address(&cuLaunchKernel_ptsz);
    }
    if (std::strcmp(name, "export:cuGraphLaunch") == 0) {
        return address(&cuGraphLaunch);
    }
    if (std::strcmp(name, "cuGetProcAddress") == 0) {
        return address(&cuGetProcAddress);
    }
    if (std::strcmp(name, "cuGetProcAddress_v2") == 0) {
        return address(&cuGetProcAddress_v2);
    }
    const std::size_t length = std::strlen(name);
    const bool ptsz = length > 5 && std::strcmp(name + length - 5, "_ptsz") == 0;
    for (const Entry& entry : k_entries) {
        if (std::strncmp(name, entry.name, ptsz ? length - 5 : length) == 0 &&
            entry.name[ptsz ? length - 5 : length] == '\0') {
            return ptsz ? entry.per_thread : entry.legacy;
        }
    }
    return nullptr;
}
}
