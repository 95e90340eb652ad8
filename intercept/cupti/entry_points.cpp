// SPDX-License-Identifier: Apache-2.0
// libirf_entry.so: the dlsym override and the cuGetProcAddress wrappers (entry_points.hpp).
// The CUDA runtime dlsym's cuGetProcAddress_v2 from libcuda and resolves every driver entry
// point through it (docs reference overhead.md section 3): wrapping it there is the one place
// that sees runtime launches without CUPTI callbacks. Driver types appear as their ABI
// equivalents (CUresult as int, handles as void*), so this library needs no CUDA header.
#include <dlfcn.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "intercept/cupti/entry_launches.hpp"

namespace irf::entry {
namespace {

using DlsymFn = void* (*)(void*, const char*);
using GetProcV1 = int (*)(const char*, void**, int, unsigned long long);
using GetProcV2 = int (*)(const char*, void**, int, unsigned long long, void*);

constexpr unsigned long long k_legacy_stream = 1;     // CU_GET_PROC_ADDRESS_LEGACY_STREAM
constexpr unsigned long long k_per_thread_stream = 2; // ..._PER_THREAD_DEFAULT_STREAM
constexpr int k_first_v2_version = 12000; // cuGetProcAddress has the _v2 ABI from CUDA 12.0

std::atomic<DlsymFn> g_real_dlsym{nullptr};
std::atomic<GetProcV1> g_real_get_proc_v1{nullptr};
std::atomic<GetProcV2> g_real_get_proc_v2{nullptr};

/// glibc 2.34 moved dlsym into libc under a new version; older ones only have the first.
DlsymFn real_dlsym() noexcept {
    DlsymFn real = g_real_dlsym.load(std::memory_order_acquire);
    if (real != nullptr) {
        return real;
    }
    static constexpr const char* k_versions[] = {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17"};
    for (const char* version : k_versions) {
        if (void* found = dlvsym(RTLD_NEXT, "dlsym", version)) {
            real = reinterpret_cast<DlsymFn>(found);
            g_real_dlsym.store(real, std::memory_order_release);
            return real;
        }
    }
    return nullptr;
}

/// The launch entry point `symbol` names, or -1: base names select the variant by `per_thread`,
/// names with "_ptsz" select it themselves.
int base_entry(const char* symbol) noexcept {
    static constexpr const char* k_names[] = {"cuLaunchKernel", "cuLaunchKernelEx",
                                              "cuLaunchCooperativeKernel", "cuGraphLaunch"};
    for (int entry = 0; entry < 4; ++entry) {
        if (std::strcmp(symbol, k_names[entry]) == 0) {
            return entry;
        }
    }
    return -1;
}

/// The variant `symbol` resolved to, or -1 when it is not a launch entry point. `ptsz_pointer`
/// answers CU_GET_PROC_ADDRESS_DEFAULT: what the per-thread search returns for the same name.
template <class PtszPointer>
int variant_of(const char* symbol, unsigned long long flags, void* resolved,
               PtszPointer ptsz_pointer) noexcept {
    const std::size_t length = std::strlen(symbol);
    if (length > 5 && std::strcmp(symbol + length - 5, "_ptsz") == 0) {
        char base[64];
        if (length - 5 >= sizeof base) {
            return -1;
        }
        std::memcpy(base, symbol, length - 5);
        base[length - 5] = '\0';
        const int entry = base_entry(base);
        return entry < 0 ? -1 : entry * 2 + 1;
    }
    const int entry = base_entry(symbol);
    if (entry < 0) {
        return -1;
    }
    bool per_thread = (flags & k_per_thread_stream) != 0;
    if ((flags & (k_legacy_stream | k_per_thread_stream)) == 0) {
        per_thread = ptsz_pointer() == resolved; // the default follows how the caller was built
    }
    return entry * 2 + (per_thread ? 1 : 0);
}

/// What cuGetProcAddress returns for `symbol` once it found `resolved`: a wrapper for the launch
/// entry points and for cuGetProcAddress itself, else `resolved` unchanged.
template <class PtszPointer>
void* handed_out(const char* symbol, int version, unsigned long long flags, void* resolved,
                 PtszPointer ptsz_pointer) noexcept;

int get_proc_v1(const char* symbol, void** pfn, int version, unsigned long long flags) noexcept {
    const GetProcV1 real = g_real_get_proc_v1.load(std::memory_order_acquire);
    const int result = real(symbol, pfn, version, flags);
    if (result == 0 && symbol != nullptr && pfn != nullptr && *pfn != nullptr) {
        const int saved = errno;
        *pfn = handed_out(symbol, version, flags, *pfn, [&]() noexcept -> void* {
            void* ptsz = nullptr;
            return real(symbol, &ptsz, version, k_per_thread_stream) == 0 ? ptsz : nullptr;
        });
        errno = saved;
    }
    return result;
}

int get_proc_v2(const char* symbol, void** pfn, int version, unsigned long long flags,
                void* status) noexcept {
    const GetProcV2 real = g_real_get_proc_v2.load(std::memory_order_acquire);
    const int result = real(symbol, pfn, version, flags, status);
    if (result == 0 && symbol != nullptr && pfn != nullptr && *pfn != nullptr) {
        const int saved = errno;
        *pfn = handed_out(symbol, version, flags, *pfn, [&]() noexcept -> void* {
            void* ptsz = nullptr;
            return real(symbol, &ptsz, version, k_per_thread_stream, nullptr) == 0 ? ptsz : nullptr;
        });
        errno = saved;
    }
    return result;
}

/// Keeps `real` as the one cuGetProcAddress of its ABI and hands out the wrapper; a second,
/// different pointer for the same ABI passes through unwrapped (it cannot be told apart).
template <class Fn, class Wrapper>
void* wrap_get_proc(std::atomic<Fn>& slot, void* real, Wrapper wrapper) noexcept {
    Fn expected = nullptr;
    const Fn found = reinterpret_cast<Fn>(real);
    if (slot.compare_exchange_strong(expected, found, std::memory_order_acq_rel) ||
        expected == found) {
        return reinterpret_cast<void*>(wrapper);
    }
    return real;
}

template <class PtszPointer>
void* handed_out(const char* symbol, int version, unsigned long long flags, void* resolved,
                 PtszPointer ptsz_pointer) noexcept {
    if (std::strcmp(symbol, "cuGetProcAddress") == 0 ||
        std::strcmp(symbol, "cuGetProcAddress_v2") == 0) {
        // Asked for its own address, it must not hand the caller past the wrapper (a
        // segfault in tools that returned the driver's pointer under a wrapper's ABI).
        if (reinterpret_cast<void*>(g_real_get_proc_v2.load()) == resolved) {
            return reinterpret_cast<void*>(&get_proc_v2);
        }
        if (reinterpret_cast<void*>(g_real_get_proc_v1.load()) == resolved) {
            return reinterpret_cast<void*>(&get_proc_v1);
        }
        const bool v2 =
            std::strcmp(symbol, "cuGetProcAddress_v2") == 0 || version >= k_first_v2_version;
        return v2 ? wrap_get_proc(g_real_get_proc_v2, resolved, &get_proc_v2)
                  : wrap_get_proc(g_real_get_proc_v1, resolved, &get_proc_v1);
    }
    const int variant = variant_of(symbol, flags, resolved, ptsz_pointer);
    return variant < 0 ? resolved : wrap_launch(static_cast<Variant>(variant), resolved);
}

/// What dlsym returns for a name it wraps (cuGetProcAddress, cuGetProcAddress_v2, a launch entry
/// point by its own name, "_ptsz" included: CUDA 13's runtime also resolves them so, seen with
/// the toolkit's stub libcuda); null for any other name, which the caller then passes on.
void* wrapped_symbol(DlsymFn real, void* handle, const char* symbol) noexcept {
    const bool get_proc = std::strncmp(symbol, "cuGetProcAddress", 16) == 0 &&
                          (symbol[16] == '\0' || std::strcmp(symbol + 16, "_v2") == 0);
    const bool launch =
        std::strncmp(symbol, "cuLaunch", 8) == 0 || std::strncmp(symbol, "cuGraphLaunch", 13) == 0;
    if (!get_proc && !launch) {
        return nullptr;
    }
    void* found = real(handle, symbol);
    if (found == nullptr) {
        return nullptr; // dlerror() still says why
    }
    const int saved = errno;
    void* out = found;
    if (get_proc) {
        out = symbol[16] == '\0' ? wrap_get_proc(g_real_get_proc_v1, found, &get_proc_v1)
                                 : wrap_get_proc(g_real_get_proc_v2, found, &get_proc_v2);
    } else {
        const int variant =
            variant_of(symbol, k_legacy_stream, found, []() noexcept -> void* { return nullptr; });
        out = variant < 0 ? found : wrap_launch(static_cast<Variant>(variant), found);
    }
    errno = saved;
    return out;
}

} // namespace
} // namespace irf::entry

extern "C" {

// Defined here, this dlsym comes before libc's for every object of the process once the
// library is preloaded. RTLD_NEXT lookups are left to the real dlsym as a tail call, so that
// "next" stays relative to the caller's object (docs/tools.md, "irf run --fast-intercept").
__attribute__((visibility("default"))) void* dlsym(void* __restrict handle,
                                                   const char* __restrict symbol) noexcept {
    using namespace irf::entry;
    const DlsymFn real = real_dlsym();
    if (real == nullptr) {
        return nullptr;
    }
    if (handle != RTLD_NEXT && symbol[0] == 'c' && symbol[1] == 'u') {
        if (void* out = wrapped_symbol(real, handle, symbol)) {
            return out;
        }
    }
    return real(handle, symbol);
}

__attribute__((visibility("default"))) int
irf_entry_register_hooks(const IrfEntryHooks* hooks) noexcept {
    return irf::entry::register_hooks(hooks);
}

__attribute__((visibility("default"))) uint64_t irf_entry_wrapped_entry_points() noexcept {
    return irf::entry::wrapped_count();
}

} // extern "C"
