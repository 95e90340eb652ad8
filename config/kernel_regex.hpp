// SPDX-License-Identifier: Apache-2.0
// The kernel-name regex of IRF_KERNELS, IRF_EXCLUDE, `irf run -k` and `irf-report analyze -k`.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace irf::config {

/// Only the first this many bytes of a kernel name are matched: bounds the time a filter can
/// spend on the 10,000-character names of templated kernels (docs/reliability.md).
constexpr std::size_t k_max_matched_name = 4096;

/// A kernel-name pattern in RE2 syntax (linear time, no recursion over the text), searched
/// anywhere in the name. A leading `regex:` (Nsight Compute's prefix) is accepted and ignored.
class KernelRegex {
public:
    /// Compiles `pattern`; on failure ok() is false and problem() says why in one line.
    explicit KernelRegex(const std::string& pattern);
    ~KernelRegex();
    KernelRegex(KernelRegex&&) noexcept;
    KernelRegex& operator=(KernelRegex&&) noexcept;

    /// True when the pattern compiled.
    [[nodiscard]] bool ok() const { return m_problem.empty(); }
    /// Why the pattern was refused ("" when ok()), e.g. "invalid RE2 regex (missing ): (gemm)".
    [[nodiscard]] const std::string& problem() const { return m_problem; }
    /// True when the pattern occurs in the first k_max_matched_name bytes of `name`; false when
    /// the pattern did not compile. Thread-safe, allocates nothing.
    [[nodiscard]] bool search(std::string_view name) const;

private:
    std::unique_ptr<re2::RE2> m_re;
    std::string m_problem;
};

/// "" when `pattern` compiles as a KernelRegex, else the one-line reason.
[[nodiscard]] std::string kernel_regex_problem(const std::string& pattern);

} // namespace irf::config
