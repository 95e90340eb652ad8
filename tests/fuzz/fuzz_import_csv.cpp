// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the ncu/nvprof CSV reader of irf-report import (issue 33 item 7). Any bytes
// either read into kernels with finite, non-negative counters, or are refused with one
// ImportError line naming the file; nothing else may escape (no crash, no other exception).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "tools/import/import_error.hpp"
#include "tools/import/read_export.hpp"

namespace {

void check_import(bool ok) {
    if (!ok) {
        std::abort(); // libFuzzer keeps the input that broke the invariant
    }
}

void check_file(const irf::import::ImportedFile& file) {
    check_import(!file.kernels.empty());
    for (const auto& kernel : file.kernels) {
        check_import(!kernel.name.empty());
        check_import(kernel.profiled_launches <= kernel.launches);
        for (const auto& [name, value] : kernel.counters) {
            check_import(!name.empty() && std::isfinite(value) && value >= 0);
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        check_file(irf::import::read_export(in, "fuzz.csv"));
    } catch (const irf::import::ImportError& e) {
        const std::string what = e.what();
        check_import(what.rfind("fuzz.csv", 0) == 0 && what.find('\n') == std::string::npos);
    }
    return 0;
}
