// SPDX-License-Identifier: Apache-2.0
// The one place that chooses the source ceilings of an analysis (libirf at exit, irf-report
// analyze): an explicit file or shipped name, else the detected GPU's shipped entry, else derived.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"

namespace irf::config {

/// What the ceilings are chosen for: the detected (or recorded) GPU's identity and properties.
struct GpuProperties {
    std::string name;           ///< device name, e.g. "NVIDIA H100 80GB HBM3"
    std::string chip;           ///< e.g. "gh100"
    std::string cc;             ///< compute capability "M.m"
    int sms = 0;                ///< SM count
    double clock_mhz = 0;       ///< SM clock
    std::uint64_t l2_bytes = 0; ///< L2 size
};

/// The chosen ceilings and the notes a user should read about the choice.
struct CeilingsChoice {
    std::optional<Ceilings> ceilings; ///< nullopt: the GPU's properties are unknown
    std::vector<std::string> notes;   ///< e.g. "no shipped ceilings for X: derived ..."
};

/// What of `gpu` deriving ceilings needs and it lacks: "compute capability", "SM count", both
/// joined by " or ", or "" when it has both (choose_ceilings then derives them).
[[nodiscard]] std::string derivation_lacks(const GpuProperties& gpu);

/// Chooses the source ceilings: `requested` (a YAML path or a shipped key; `what` names where it
/// came from, e.g. "IRF_CEILINGS") when not empty, else the shipped entry matching `gpu`, else
/// ceilings derived from `gpu`'s properties. Throws CeilingsError for a bad `requested`.
[[nodiscard]] CeilingsChoice choose_ceilings(const std::string& requested, const std::string& what,
                                             const GpuProperties& gpu,
                                             const std::vector<std::string>& dirs);

} // namespace irf::config
