// SPDX-License-Identifier: Apache-2.0
// Test helper: compare output against a golden file under tests/data/golden/.
#pragma once

#include <string>

#include <gtest/gtest.h>

namespace irf::test {

/// Absolute path of a file under tests/data/ in the source tree.
[[nodiscard]] std::string data_path(const std::string& relative);

/// Succeeds when `actual` equals tests/data/golden/<name>. With IRF_UPDATE_GOLDEN=1 in the
/// environment the golden file is (re)written instead and the check FAILS with "updated,
/// re-run": an update never passes silently (scripts/test.sh then checks tests/data unchanged).
[[nodiscard]] ::testing::AssertionResult matches_golden(const std::string& name,
                                                        const std::string& actual);

/// matches_golden against the file at `path` (absolute); the same update mode.
[[nodiscard]] ::testing::AssertionResult matches_golden_file(const std::string& path,
                                                             const std::string& actual);

} // namespace irf::test
