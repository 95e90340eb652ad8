// SPDX-License-Identifier: Apache-2.0
// The stream captures open in the process and the streams joined into them (plain C++). A
// stream is named by a key that CUPTI makes unique per context and per thread for a per-thread
// default stream (stream_key in guarded_calls.cpp), not by its handle: NULL through a _ptsz
// entry names another stream on every thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace irf::intercept::cupti {

/// Open captures with their member streams; a stream joins a capture by waiting for an event
/// recorded in one of its streams (fork), and every member leaves when the capture ends (its
/// joins must be back by then, or the end reports the capture unjoined). Not thread-safe.
class CaptureSet {
public:
    /// A capture began on stream `origin`.
    void begin(std::uint64_t origin) {
        if (find(origin) == nullptr) {
            m_captures.push_back({origin, {origin}});
        }
    }

    /// The capture begun on `origin` ended: its streams and events are forgotten.
    void end(std::uint64_t origin) {
        for (auto it = m_events.begin(); it != m_events.end();) {
            it = it->second == origin ? m_events.erase(it) : std::next(it);
        }
        m_captures.erase(std::remove_if(m_captures.begin(), m_captures.end(),
                                        [origin](const Capture& c) { return c.origin == origin; }),
                         m_captures.end());
    }

    /// `event` was recorded in `stream`: inside a capture it carries that capture, else nothing.
    void record(const void* event, std::uint64_t stream) {
        if (const Capture* c = capture_of(stream)) {
            m_events[event] = c->origin;
        } else {
            m_events.erase(event);
        }
    }

    /// `stream` waits for `event`: one recorded inside a capture makes it a member.
    void wait(std::uint64_t stream, const void* event) {
        const auto it = m_events.find(event);
        Capture* c = it != m_events.end() ? find(it->second) : nullptr;
        if (c != nullptr && capture_of(stream) == nullptr) {
            c->members.push_back(stream);
        }
    }

    /// True when `stream` belongs to an open capture.
    [[nodiscard]] bool captured(std::uint64_t stream) const {
        return capture_of(stream) != nullptr;
    }

    /// Open captures.
    [[nodiscard]] std::size_t size() const noexcept { return m_captures.size(); }

private:
    struct Capture {
        std::uint64_t origin = 0;
        std::vector<std::uint64_t> members;
    };

    Capture* find(std::uint64_t origin) {
        for (Capture& c : m_captures) {
            if (c.origin == origin) {
                return &c;
            }
        }
        return nullptr;
    }

    const Capture* capture_of(std::uint64_t stream) const {
        for (const Capture& c : m_captures) {
            if (std::find(c.members.begin(), c.members.end(), stream) != c.members.end()) {
                return &c;
            }
        }
        return nullptr;
    }

    std::vector<Capture> m_captures;
    std::unordered_map<const void*, std::uint64_t> m_events; ///< event -> its capture's origin
};

} // namespace irf::intercept::cupti
