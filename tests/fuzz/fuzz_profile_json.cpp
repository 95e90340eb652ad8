// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the profile JSON loader (what irf-report and merge read) on any bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "model/profile_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const irf::model::Profile profile =
            irf::model::profile_from_json(nlohmann::json::parse(text));
        // A loaded profile must write back without failing.
        (void)irf::model::dump_profile(profile);
    } catch (const std::exception&) { // refusing bad input is the expected outcome
    }
    return 0;
}
