// SPDX-License-Identifier: Apache-2.0
// The GPU of an imported profile: --gpu, else the files' Device name, else their CC (chip
// family) with derived ceilings (docs/import.md, "GPU").
#pragma once

#include <string>
#include <vector>

#include "model/profile/profile.hpp"
#include "tools/import/imported.hpp"

namespace irf::import {

/// How the GPU was chosen: the ceilings to analyse with ("" = derive from the GPU's
/// properties), a warning for the user ("" = none), and whether there is anything to analyse
/// with (false: no shipped match and too little in the files to derive ceilings).
struct GpuChoice {
    std::string ceilings;
    std::string warning;
    bool analysable = true;
};

/// Fills `profile.gpu` from `requested` (a shipped name or YAML file; throws InputError-like
/// config::CeilingsError when bad), else from the first file naming a device that matches a
/// shipped entry, else from the files' device name and CC with a warning.
[[nodiscard]] GpuChoice choose_gpu(model::Profile& profile, const std::vector<ImportedFile>& files,
                                   const std::string& requested,
                                   const std::vector<std::string>& dirs);

} // namespace irf::import
