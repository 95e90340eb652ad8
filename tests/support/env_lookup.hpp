// SPDX-License-Identifier: Apache-2.0
// Test helper: a fake process environment for the IRF_* parsers.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "common/environment.hpp"

namespace irf::test {

/// An environment lookup that answers from `vars` (nullptr for a name not in it).
inline common::EnvLookup env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> const char* {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}

} // namespace irf::test
