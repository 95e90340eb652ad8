// SPDX-License-Identifier: Apache-2.0
// The NVTX filter. A push/pop-only filter depends on the path alone and is cached per path; a
// filter naming start/end ranges is evaluated at every launch of a selected kernel (those ranges
// are process-wide and open and close at any time).
#include "intercept/nvtx_filter.hpp"

#include "intercept/nvtx_stack.hpp"

namespace irf::intercept {
namespace {

std::atomic<std::uint32_t> s_next_filter_id{1};

bool any_match(const std::vector<config::NvtxExpr>& exprs,
               const std::vector<config::NvtxRange>& stack, const std::vector<std::string>& open) {
    for (const config::NvtxExpr& e : exprs) {
        if (config::nvtx_matches(e, stack, open)) {
            return true;
        }
    }
    return false;
}

} // namespace

NvtxFilter::NvtxFilter(const std::string& include, const std::string& exclude)
    : m_id(s_next_filter_id.fetch_add(1) & 0x3fffffffu) {
    std::string problem;
    m_valid = config::parse_nvtx_list(include, m_include, problem) &&
              config::parse_nvtx_list(exclude, m_exclude, problem);
    m_active = !m_valid || !m_include.empty() || !m_exclude.empty();
    for (const auto* list : {&m_include, &m_exclude}) {
        for (const config::NvtxExpr& e : *list) {
            m_dynamic = m_dynamic || !e.push_pop;
        }
    }
}

bool NvtxFilter::compute(std::uint32_t path) const noexcept {
    try {
        std::vector<config::NvtxRange> stack;
        for (nvtx::PathElement& e : nvtx::path_elements(path)) {
            stack.push_back({std::move(e.domain), std::move(e.name)});
        }
        const std::vector<std::string> open =
            m_dynamic ? nvtx::open_ranges() : std::vector<std::string>{};
        return (m_include.empty() || any_match(m_include, stack, open)) &&
               !any_match(m_exclude, stack, open);
    } catch (...) {
        return false; // out of memory: do not spend a counter range on it
    }
}

bool NvtxFilter::allows(std::uint32_t path) const noexcept {
    if (!m_active) {
        return true;
    }
    if (!m_valid) {
        return false;
    }
    if (m_dynamic) {
        return compute(path);
    }
    std::atomic<std::uint32_t>* cache = nvtx::path_cache(path);
    if (cache == nullptr) {
        cache = &m_root_cache;
    }
    const std::uint32_t cached = cache->load(std::memory_order_relaxed);
    if ((cached >> 2) == m_id) {
        return (cached & 1u) != 0;
    }
    const bool answer = compute(path);
    cache->store((m_id << 2) | (answer ? 1u : 0u), std::memory_order_relaxed);
    return answer;
}

} // namespace irf::intercept
