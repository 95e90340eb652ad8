// SPDX-License-Identifier: Apache-2.0
// Host call sites of kernel launches: raw return addresses captured with libunwind at launch
// time, symbolized once per distinct address at exit.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

namespace irf::intercept {

/// Raw return addresses, innermost first.
using RawStack = std::vector<void*>;

/// Captures up to `frames` application frames of the calling thread, skipping `skip` innermost
/// frames (irf's own). Frames inside irf, CUPTI and the CUDA libraries are dropped at
/// symbolization, so a few extra are captured here. Never throws; empty when `frames` is 0.
[[nodiscard]] RawStack capture_call_stack(int frames, int skip) noexcept;

/// Turns raw stacks into text, caching each address's symbol (dladdr + demangling) so that a
/// site shared by many kernels is resolved once.
class Symbolizer {
public:
    /// "func+0x1a (app) < main+0x40 (app)": the first `frames` frames outside irf, CUPTI and
    /// the CUDA libraries; an unnamed frame is written as "object+0xoffset".
    [[nodiscard]] std::string describe(const RawStack& stack, int frames);

private:
    struct Frame {
        std::string text;
        bool internal = false; ///< in irf, CUPTI or a CUDA library
    };
    const Frame& frame(void* address);

    std::unordered_map<void*, Frame> m_cache;
};

} // namespace irf::intercept
