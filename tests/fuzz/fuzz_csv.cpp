// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the CSV writer of irf-report (issue 22 item 9). The input is a kernel name
// (any bytes); the cell and the whole CSV must be UTF-8, quoted where RFC 4180 needs it, and
// never start with a character a spreadsheet runs as a formula.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/text_safety.hpp"
#include "model/profile/profile.hpp"
#include "tools/irf_report/csv_kernels.hpp"

namespace {

void check(bool ok) {
    if (!ok) {
        std::abort(); // libFuzzer keeps the input that broke the invariant
    }
}

bool plain_number(const std::string& text) {
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size();
}

void check_cell(const std::string& name, const std::string& cell) {
    check(irf::common::valid_utf8(cell) == cell);
    const bool quoted = !cell.empty() && cell.front() == '"';
    if (quoted) {
        check(cell.size() >= 2 && cell.back() == '"');
        const std::string inner = cell.substr(1, cell.size() - 2);
        for (std::size_t i = 0; i < inner.size(); ++i) {
            if (inner[i] == '"') { // every quote inside is doubled
                check(i + 1 < inner.size() && inner[i + 1] == '"');
                ++i;
            }
        }
    } else {
        check(cell.find_first_of(",\"\r\n") == std::string::npos);
    }
    const std::string content = quoted ? cell.substr(1) : cell;
    const bool formula =
        !content.empty() && std::string("=+-@\t\r").find(content[0]) != std::string::npos;
    check(!formula || plain_number(name));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string name(reinterpret_cast<const char*>(data), size);
    check_cell(name, irf::report::csv_field(name));
    irf::model::Profile profile;
    irf::model::KernelRecord kernel;
    kernel.name = name;
    kernel.launches = 1;
    profile.kernels.push_back(kernel);
    const std::string csv = irf::report::profile_csv(profile);
    check(irf::common::valid_utf8(csv) == csv);
    return 0;
}
