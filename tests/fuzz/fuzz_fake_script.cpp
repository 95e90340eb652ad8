// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the fake backend's script loader (IRF_BACKEND=fake:FILE).
#include <cstddef>
#include <cstdint>
#include <string>

#include "intercept/fake/fake_script.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)irf::intercept::fake::parse_script(text);
    } catch (const std::exception&) { // refusing bad input is the expected outcome
    }
    return 0;
}
