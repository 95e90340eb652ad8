// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the ceilings YAML parser and validator (IRF_CEILINGS, irf-report ceilings).
#include <cstddef>
#include <cstdint>
#include <string>

#include "config/ceilings_yaml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const irf::config::Ceilings ceilings = irf::config::parse_ceilings_yaml(text, "fuzz");
        irf::config::validate_ceilings(ceilings, "fuzz");
        (void)irf::config::to_yaml(ceilings);
    } catch (const std::exception&) { // refusing bad input is the expected outcome
    }
    return 0;
}
