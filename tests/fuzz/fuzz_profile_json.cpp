// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the profile JSON loaders (what irf-report and merge read) on any bytes: the
// streaming reader (full and lean, model/profile/profile_load.cpp) and the document reader must
// agree.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "model/profile/profile_json.hpp"

namespace {

/// The profile `read` returns, or nothing when it refuses the input.
template <class Read> std::optional<irf::model::Profile> refused_or(Read&& read) {
    try {
        return read();
    } catch (const std::exception&) { // refusing bad input is an expected outcome
        return std::nullopt;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto streamed = refused_or([&] { return irf::model::profile_from_text(text); });
    const auto lean = refused_or([&] { return irf::model::profile_from_text(text, {}, true); });
    if (!streamed) {
        return 0;
    }
    // What the streaming reader accepts, the document reader accepts alike (the streaming one
    // only adds depth and size limits), a lean read too, and it writes back without failing.
    const auto document =
        refused_or([&] { return irf::model::profile_from_json(nlohmann::json::parse(text)); });
    if (!document || !lean ||
        irf::model::dump_profile(*document) != irf::model::dump_profile(*streamed)) {
        std::abort();
    }
    return 0;
}
