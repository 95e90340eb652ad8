// SPDX-License-Identifier: Apache-2.0
// Whether two profiles ran on one GPU model, decided by what the GPU is (chip, cc, SMs, the
// shipped entry its name matches), not by who recorded the file: libirf names the device as the
// driver does, an import as its --gpu entry or not at all (docs/tools.md, "Which kernels are the
// same").
#pragma once

#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::report {

/// How the GPUs of two profiles relate.
enum class GpuRelation {
    same,      ///< one model: equal names, or names matching one shipped entry
    same_chip, ///< nothing tells them apart, but one side does not name its model
    different, ///< chip, cc, SM count or the matched shipped entry differ
};

/// The relation of `a` and `b`, names matched against the shipped entries of `dirs`.
[[nodiscard]] GpuRelation gpu_relation(const model::GpuInfo& a, const model::GpuInfo& b,
                                       const std::vector<std::string>& dirs);

} // namespace irf::report
