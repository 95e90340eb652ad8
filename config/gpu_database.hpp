// SPDX-License-Identifier: Apache-2.0
// The shipped ceilings database (config/gpus/*.yaml): search path, lookup, GPU detection match,
// fallback derivation from device properties, and IRF_TARGETS resolution.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"

namespace irf::config {

/// Directories holding shipped entries, in search order, existing ones only:
/// $IRF_GPUS_DIR (':'-separated) if set and valid (every part a directory), then
/// <anchor_dir>/../share/irf/gpus (installed layout; anchor = directory of the running binary or of
/// libirf.so), then the source tree's config/gpus. Duplicates are dropped.
[[nodiscard]] std::vector<std::string> gpus_dirs(const std::string& anchor_dir);

/// True when a ceilings or target item names a YAML file (contains '/' or ends in .yaml/.yml)
/// rather than a shipped key.
[[nodiscard]] bool looks_like_path(const std::string& item);

/// Database keys (file stems of *.yaml, measured files such as "h100-sxm5.measured" included)
/// found in `dirs`, sorted and unique.
[[nodiscard]] std::vector<std::string> list_shipped(const std::vector<std::string>& dirs);

/// Loads entry `key` from the first directory that has <key>.yaml; source = "shipped:<key>
/// (<path>)". Throws CeilingsError when no directory has it (the message lists known keys).
[[nodiscard]] Ceilings load_shipped(const std::string& key, const std::vector<std::string>& dirs);

/// Maps a detected GPU (device name, "M.m" compute capability, SM count) to a database key:
/// the spec entry whose cc and SM count equal and one of whose aliases (or name) the device
/// name contains, longest alias winning; "<key>.measured" when that file exists. An SM count of
/// 0 or an empty cc (an imported export that does not say them) matches any.
/// nullopt when nothing matches. Unreadable entries are skipped.
[[nodiscard]] std::optional<std::string> match_gpu(const std::string& name, const std::string& cc,
                                                   int sms, const std::vector<std::string>& dirs);

/// Shipped spec entries (measured files left out) whose family, the key up to its first '-'
/// ("v100" of "v100-sxm2"), the device name contains, case-blind, the longest such families only
/// ("A100X" is an a100, not an a10): the stand-ins to suggest when match_gpu finds none.
[[nodiscard]] std::vector<std::string> family_entries(const std::string& device,
                                                      const std::vector<std::string>& dirs);

/// Fallback ceilings from device properties when no file matches: warp GIPS = SMs x 4 x clock,
/// per-pipe and FP rates from the per-SM lanes of `cc`, L1/shared from B/clk/SM; HBM, L2 and
/// PCIe stay unknown. Every value has provenance derived with its formula; source = "derived".
/// Throws CeilingsError when the properties are impossible (no SMs, clock unknown or < 100 MHz).
[[nodiscard]] Ceilings derive_ceilings(const std::string& name, const std::string& chip,
                                       const std::string& cc, int sms, double clock_mhz,
                                       std::uint64_t l2_bytes);

/// Loads one ceilings file named by a YAML path (contains '/', ends in .yaml/.yml, or is an
/// existing file) or a shipped key. Throws CeilingsError naming `what` (e.g. "IRF_CEILINGS") and
/// the known keys (after `also_known`) and the nearest one ("did you mean") for an unknown
/// key, or the file's error.
[[nodiscard]] Ceilings load_named_ceilings(const std::string& item,
                                           const std::vector<std::string>& dirs,
                                           const std::string& what,
                                           const std::string& also_known = "");

/// Distinct targets an IRF_TARGETS list may name (the shipped database has about 20 entries).
inline constexpr std::size_t k_max_targets = 64;

/// Resolves an IRF_TARGETS value: "all" = every shipped spec entry (measured files excluded),
/// "none" or "" = nothing, else a comma list of keys or YAML paths (a path contains '/' or ends
/// in .yaml/.yml), each loaded once however often it is named. Throws CeilingsError naming an
/// unknown target (after `what`, where the value came from: "IRF_TARGETS", "--targets") or a bad
/// file, or when more than k_max_targets distinct ones are named.
[[nodiscard]] std::vector<Ceilings> resolve_targets(const std::string& spec,
                                                    const std::vector<std::string>& dirs,
                                                    const std::string& what = "IRF_TARGETS");

} // namespace irf::config
