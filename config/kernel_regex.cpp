// SPDX-License-Identifier: Apache-2.0
// RE2 behind the kernel filters. std::regex recursed once per character of the name (a stack
// overflow on long templated names) and backtracked exponentially on patterns like (a|a)*b;
// RE2 runs in time linear in the text and its memory is capped at compile time.
#include "config/kernel_regex.hpp"

#include <re2/re2.h>

namespace irf::config {
namespace {

constexpr std::string_view k_ncu_prefix = "regex:";
// RE2's default program budget (8 MiB): a pattern over it is refused with "pattern too large".
constexpr int64_t k_max_program_bytes = 8 << 20;

std::string_view without_ncu_prefix(const std::string& pattern) {
    const std::string_view p(pattern);
    return p.substr(0, k_ncu_prefix.size()) == k_ncu_prefix ? p.substr(k_ncu_prefix.size()) : p;
}

} // namespace

KernelRegex::KernelRegex(const std::string& pattern) {
    RE2::Options options;
    options.set_log_errors(false); // the caller prints the one line
    options.set_max_mem(k_max_program_bytes);
    const std::string_view body = without_ncu_prefix(pattern);
    m_re = std::make_unique<re2::RE2>(re2::StringPiece(body.data(), body.size()), options);
    if (!m_re->ok()) {
        m_problem = "invalid RE2 regex (" + m_re->error() + ")";
    }
}

KernelRegex::~KernelRegex() = default;
KernelRegex::KernelRegex(KernelRegex&&) noexcept = default;
KernelRegex& KernelRegex::operator=(KernelRegex&&) noexcept = default;

bool KernelRegex::search(std::string_view name) const {
    if (!ok()) {
        return false;
    }
    const std::string_view head = name.substr(0, k_max_matched_name);
    return RE2::PartialMatch(re2::StringPiece(head.data(), head.size()), *m_re);
}

std::string kernel_regex_problem(const std::string& pattern) {
    return KernelRegex(pattern).problem();
}

} // namespace irf::config
