// SPDX-License-Identifier: Apache-2.0
// Whether the calling thread is inside irf code that holds irf's locks, for the signal handler:
// a finalizer woken by a signal that landed there would wait for those locks forever.
#pragma once

namespace irf::common {

/// Depth of irf's lock-holding sections on this thread. Initial-exec TLS, so that reading it
/// from a signal handler never allocates (a dynamic TLS block may be created on first use).
inline thread_local __attribute__((tls_model("initial-exec"))) int t_inside_irf = 0;

/// Marks a section that takes irf's locks (e.g. CUPTI's buffer callback delivering records).
class InsideIrf {
public:
    InsideIrf() noexcept { ++t_inside_irf; }
    ~InsideIrf() { --t_inside_irf; }
    InsideIrf(const InsideIrf&) = delete;
    InsideIrf& operator=(const InsideIrf&) = delete;
};

/// True inside such a section on the calling thread; async-signal-safe.
[[nodiscard]] inline bool inside_irf() noexcept {
    return t_inside_irf > 0;
}

} // namespace irf::common
