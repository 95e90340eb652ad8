// SPDX-License-Identifier: Apache-2.0
// A recorded NVTX range stream (tests/data/nvtx/emit-nvtx-step.txt) loaded for replay through
// intercept/nvtx_stack.hpp, one copy per training step with emit_nvtx's numbers moved on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "intercept/nvtx_stack.hpp"

namespace irf::bench {

/// One push or pop of the stream.
struct NvtxEvent {
    bool push = false;
    std::uint32_t domain = intercept::nvtx::k_default_domain;
    std::string_view name; ///< into NvtxStream::names (pushes only)
};

/// A step's events, `steps` times over with their own numbers.
struct NvtxStream {
    std::vector<std::string> names; ///< every push's name, all steps (never grows after load)
    std::vector<std::vector<NvtxEvent>> steps;
    std::size_t pushes = 0; ///< per step
};

/// `line` with every number after "seq = ", "op_id = " and "(" moved on by `by`: a training
/// loop's next step carries new sequence numbers and operator ids.
inline std::string renumber(const std::string& line, std::uint64_t by) {
    std::string out;
    std::size_t at = 0;
    while (at < line.size()) {
        std::size_t next = std::string::npos;
        for (const char* key : {"seq = ", "op_id = ", "("}) {
            const std::size_t found = line.find(key, at);
            if (found != std::string::npos && (next == std::string::npos || found < next)) {
                next = found + std::char_traits<char>::length(key);
            }
        }
        if (next == std::string::npos || next >= line.size() || line[next] < '0' ||
            line[next] > '9') {
            out.append(line, at, next == std::string::npos ? std::string::npos : next - at);
            at = next == std::string::npos ? line.size() : next;
            continue;
        }
        out.append(line, at, next - at);
        std::size_t end = next;
        while (end < line.size() && line[end] >= '0' && line[end] <= '9') {
            ++end;
        }
        out += std::to_string(std::stoull(line.substr(next, end - next)) + by);
        at = end;
    }
    return out;
}

/// Reads `path` ("+ NAME", "-", "+@DOMAIN NAME", "-@DOMAIN"; '#' comments) into `steps` copies;
/// empty steps when the file cannot be read.
inline NvtxStream load_nvtx_stream(const std::string& path, std::size_t steps) {
    NvtxStream stream;
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line[0] != '#') {
            lines.push_back(line);
        }
    }
    if (lines.empty()) {
        return stream;
    }
    struct Parsed {
        bool push;
        std::uint32_t domain;
        std::string name;
    };
    std::vector<Parsed> parsed;
    for (const std::string& line : lines) {
        const bool push = line[0] == '+';
        std::uint32_t domain = intercept::nvtx::k_default_domain;
        std::size_t name_at = 2;
        if (line.size() > 1 && line[1] == '@') {
            const std::size_t space = line.find(' ');
            domain = intercept::nvtx::domain(line.substr(2, space - 2));
            name_at = space == std::string::npos ? line.size() : space + 1;
        }
        parsed.push_back({push, domain, push ? line.substr(name_at) : std::string()});
        stream.pushes += push ? 1 : 0;
    }
    for (std::size_t s = 0; s < steps; ++s) {
        for (const Parsed& p : parsed) {
            if (p.push) {
                stream.names.push_back(renumber(p.name, 1000 * s));
            }
        }
    }
    std::size_t name = 0;
    for (std::size_t s = 0; s < steps; ++s) {
        std::vector<NvtxEvent>& events = stream.steps.emplace_back();
        for (const Parsed& p : parsed) {
            events.push_back(
                {p.push, p.domain,
                 p.push ? std::string_view(stream.names[name++]) : std::string_view()});
        }
    }
    return stream;
}

/// Replays step `step` of `stream` on the calling thread as irf's NVTX injection would.
inline void replay(const NvtxStream& stream, std::size_t step) noexcept {
    for (const NvtxEvent& e : stream.steps[step]) {
        if (e.push) {
            intercept::nvtx::push(e.domain, e.name);
        } else {
            intercept::nvtx::pop_domain(e.domain);
        }
    }
}

} // namespace irf::bench
