// SPDX-License-Identifier: Apache-2.0
// Call-site capture (libunwind) and symbolization (dladdr).
#include "intercept/call_site.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include <dlfcn.h>
#define UNW_LOCAL_ONLY // unwind this process only: the fast local implementation
#include <libunwind.h>

#include "common/demangle.hpp"

namespace irf::intercept {
namespace {

/// Frames captured beyond the requested ones, for the CUDA/CUPTI/irf frames dropped later.
constexpr int k_extra_frames = 24;
constexpr int k_max_frames = 64 + k_extra_frames;

bool is_internal_object(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    for (const char* prefix : {"libirf", "libcupti", "libcuda.", "libcudart", "libnvperf"}) {
        if (base.rfind(prefix, 0) == 0) {
            return true;
        }
    }
    return false;
}

std::string base_name(const char* path) {
    const std::string p = path != nullptr ? path : "?";
    const std::size_t slash = p.rfind('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string hex(std::uintptr_t value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
    return buf;
}

} // namespace

RawStack capture_call_stack(int frames, int skip) noexcept {
    RawStack out;
    if (frames <= 0) {
        return out;
    }
    try {
        // A global cache instead of libunwind's per-thread one: no thread-specific data (and no
        // TSD destructor) is left in the application's threads.
        static const int s_policy = unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_GLOBAL);
        (void)s_policy;
        void* buffer[k_max_frames + 8];
        const int wanted = std::min(frames + k_extra_frames + skip, k_max_frames + 8);
        const int got = unw_backtrace(buffer, wanted);
        for (int i = skip + 1; i < got; ++i) { // +1: this function's own frame
            out.push_back(buffer[i]);
        }
    } catch (...) {
        out.clear();
    }
    return out;
}

const Symbolizer::Frame& Symbolizer::frame(void* address) {
    const auto found = m_cache.find(address);
    if (found != m_cache.end()) {
        return found->second;
    }
    Frame f;
    // A return address points after the call; look up the call instruction itself.
    const auto ip = reinterpret_cast<std::uintptr_t>(address) - 1;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(ip), &info) != 0) {
        const std::string object = base_name(info.dli_fname);
        f.internal = is_internal_object(info.dli_fname != nullptr ? info.dli_fname : "");
        if (info.dli_sname != nullptr) {
            f.text = common::demangle(info.dli_sname) + "+" +
                     hex(ip + 1 - reinterpret_cast<std::uintptr_t>(info.dli_saddr)) + " (" +
                     object + ")";
        } else {
            f.text = object + "+" + hex(ip + 1 - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
        }
    } else {
        f.text = hex(ip + 1);
    }
    return m_cache.emplace(address, std::move(f)).first->second;
}

std::string Symbolizer::describe(const RawStack& stack, int frames) {
    std::string out;
    int kept = 0;
    for (void* address : stack) {
        if (kept >= frames) {
            break;
        }
        const Frame& f = frame(address);
        if (f.internal) {
            continue;
        }
        out += (kept == 0 ? "" : " < ") + f.text;
        ++kept;
    }
    return out;
}

} // namespace irf::intercept
