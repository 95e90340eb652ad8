// SPDX-License-Identifier: Apache-2.0
// Runs irf-report (IRF_REPORT_BIN) in tests/data/golden, for the tests of its views.
#pragma once

#include <string>
#include <vector>

#include "tests/support/run_process.hpp"

namespace irf::test {

/// irf-report with `args`, run in tests/data/golden so that relative file names keep headers
/// and messages free of machine paths; `expect_error` allows an error line on stderr.
inline ProcessResult report_in_golden(const std::vector<std::string>& args,
                                      bool expect_error = false) {
    std::vector<std::string> argv{IRF_REPORT_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    RunOptions options;
    options.cwd = IRF_TEST_DATA_DIR "/golden";
    options.expect_irf_error = expect_error;
    return run_process(argv, options);
}

} // namespace irf::test
