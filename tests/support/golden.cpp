// SPDX-License-Identifier: Apache-2.0
#include "tests/support/golden.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "tests/support/temp_dir.hpp"

namespace irf::test {

std::string data_path(const std::string& relative) {
    return std::string(IRF_TEST_DATA_DIR) + "/" + relative;
}

namespace {

/// First differing line, for a readable failure message.
std::string first_difference(const std::string& expected, const std::string& actual) {
    std::istringstream e(expected), a(actual);
    std::string le, la;
    for (int line = 1;; ++line) {
        const bool more_e = static_cast<bool>(std::getline(e, le));
        const bool more_a = static_cast<bool>(std::getline(a, la));
        if (!more_e && !more_a) {
            return "(only whitespace at the end differs)";
        }
        if (le != la || more_e != more_a) {
            return "line " + std::to_string(line) + ":\n  expected: " + (more_e ? le : "<eof>") +
                   "\n  actual:   " + (more_a ? la : "<eof>");
        }
    }
}

} // namespace

::testing::AssertionResult matches_golden(const std::string& name, const std::string& actual) {
    return matches_golden_file(data_path("golden/" + name), actual);
}

::testing::AssertionResult matches_golden_file(const std::string& path, const std::string& actual) {
    const char* update = std::getenv("IRF_UPDATE_GOLDEN");
    if (update && std::string(update) == "1") {
        write_file(path, actual);
        return ::testing::AssertionFailure()
               << path << " updated, re-run without IRF_UPDATE_GOLDEN";
    }
    if (!std::filesystem::exists(path)) {
        return ::testing::AssertionFailure()
               << "golden file " << path << " missing (run with IRF_UPDATE_GOLDEN=1 to create it)";
    }
    const std::string expected = read_file(path);
    if (expected == actual) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "output differs from " << path << " at " << first_difference(expected, actual);
}

} // namespace irf::test
