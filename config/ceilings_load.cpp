// SPDX-License-Identifier: Apache-2.0
// Loading a ceilings file and validating in-memory ceilings, with one-line errors.
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

Ceilings load_ceilings_file(const std::string& path) {
    // Ceilings files are a few KB; refuse anything absurd rather than read it all, and never
    // block on a FIFO or device (read_file_bounded takes regular files only).
    constexpr std::size_t k_max_bytes = 4u << 20;
    std::string text;
    if (const std::string error = common::read_file_bounded(path, text, k_max_bytes);
        !error.empty()) {
        throw CeilingsError(path + ": (file): " + error);
    }
    return parse_ceilings_yaml(text, path);
}

void validate_ceilings(const Ceilings& ceilings, const std::string& origin) {
    try {
        rules::validate(ceilings, origin, {});
    } catch (const CeilingsError& e) {
        throw rules::one_line(e);
    }
}

} // namespace irf::config
