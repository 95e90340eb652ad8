// SPDX-License-Identifier: Apache-2.0
// Bad input in a foreign export: one line naming the file, line and column (exit 2).
#pragma once

#include <cstddef>
#include <string>

#include "common/cli.hpp"

namespace irf::import {

/// A problem in an imported file; what() is "FILE:LINE:COLUMN: message" (line 0: whole file).
class ImportError : public common::BadInput {
public:
    /// `line` and `column` count from 1; 0 leaves them out of the message.
    ImportError(const std::string& file, std::size_t line, std::size_t column,
                const std::string& message);
};

} // namespace irf::import
