// SPDX-License-Identifier: Apache-2.0
// Loading a ceilings file and validating in-memory ceilings, with one-line errors.
#include <map>
#include <mutex>
#include <utility>

#include "common/file_io.hpp"
#include "config/ceilings_rules.hpp"
#include "config/ceilings_yaml.hpp"

namespace irf::config {

CeilingsError rules::one_line(const CeilingsError& e) {
    std::string msg = e.what();
    for (auto& ch : msg) {
        ch = ch == '\n' || ch == '\r' ? ' ' : ch;
    }
    return CeilingsError(msg);
}

namespace {

/// parse_ceilings_yaml of a file's text, remembered by path and text: irf-report read each shipped
/// file two or three times (matching the GPU, loading its entry, resolving `all` targets), a
/// tenth of analysing 5,000 kernels (docs/performance.md, "Tools on 100,000 kernels"). The same
/// text gives the same ceilings, so a file changed since is parsed again. Never destroyed, as
/// libirf loads ceilings from an atexit handler; a lock held elsewhere (a signal on a loading
/// thread) means no cache rather than a wait.
Ceilings parse_cached(const std::string& text, const std::string& path) {
    static auto* const s_mutex = new std::mutex;
    static auto* const s_parsed = new std::map<std::pair<std::string, std::string>, Ceilings>;
    constexpr std::size_t k_max_entries = 64;
    auto key = std::make_pair(path, text);
    {
        const std::unique_lock<std::mutex> lock(*s_mutex, std::try_to_lock);
        if (lock.owns_lock()) {
            if (const auto it = s_parsed->find(key); it != s_parsed->end()) {
                return it->second;
            }
        }
    }
    Ceilings c = parse_ceilings_yaml(text, path);
    const std::unique_lock<std::mutex> lock(*s_mutex, std::try_to_lock);
    if (lock.owns_lock()) {
        if (s_parsed->size() >= k_max_entries) {
            s_parsed->clear();
        }
        s_parsed->emplace(std::move(key), c);
    }
    return c;
}

} // namespace

Ceilings load_ceilings_file(const std::string& path) {
    // Ceilings files are a few KB; refuse anything absurd rather than read it all, and never
    // block on a FIFO or device (read_file_bounded takes regular files only).
    constexpr std::size_t k_max_bytes = 4u << 20;
    std::string text;
    if (const std::string error = common::read_file_bounded(path, text, k_max_bytes);
        !error.empty()) {
        throw CeilingsError(path + ": (file): " + error);
    }
    return parse_cached(text, path);
}

void validate_ceilings(const Ceilings& ceilings, const std::string& origin) {
    try {
        rules::validate(ceilings, origin, {});
    } catch (const CeilingsError& e) {
        throw rules::one_line(e);
    }
}

} // namespace irf::config
