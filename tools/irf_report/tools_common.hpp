// SPDX-License-Identifier: Apache-2.0
// Helpers shared by irf-report merge, compare and csv: input loading, kernel matching, formats.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/file_io.hpp"
#include "common/kernel_name.hpp"
#include "common/time_format.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/profile/profile.hpp"

namespace irf::report {

/// The profile `read` returns (a read of `path`), its model::FormatError as an InputError naming
/// the file, and refused without kernels, as load_input does.
[[nodiscard]] model::Profile load_input_with(const std::string& path,
                                             const std::function<model::Profile()>& read);

/// Loads an analysed or raw profile; any problem (missing file, bad JSON, wrong schema, no
/// kernel) becomes an InputError naming the file. `lean`: model::load_profile's. `threads`: the
/// threads that parse it (0: analysis_threads(); merge, reading several files at once, says 1).
[[nodiscard]] model::Profile load_input(const std::string& path, bool lean = false,
                                        unsigned threads = 0);

/// Keeps only the kernels whose name matches the RE2 `pattern` (`option` names it in errors):
/// an InputError when the pattern is invalid or no kernel matches. Empty pattern: no change.
void keep_matching_kernels(model::Profile& profile, const std::string& pattern,
                           const std::string& option);

/// Hands `profile` to the process's exit instead of freeing it now: a profile of 100,000 kernels
/// is millions of small allocations, about a second to free one by one, while the system takes
/// the whole heap back at once (docs/performance.md). For a command's last use of its profile.
void keep_until_exit(model::Profile&& profile);

/// Writes `text` to `path` atomically, or to standard output when `path` is empty (-o/--output
/// of every irf-report command); a write failure is an InputError.
void emit_output(const std::string& text, const std::string& path);

/// emit_output for text made in parts by `produce` (common::write_file_atomic_streamed), so
/// that the whole text is never held.
void emit_output_streamed(const std::function<void(const common::EmitPart&)>& produce,
                          const std::string& path);

/// Refuses `output` (an InputError naming both) when it is the same file, by device and inode,
/// as one of `inputs`: an export or profile may have cost hours of GPU time, so no command but
/// `analyze -o` writes over what it reads (docs/tools.md). Empty output (standard output), and
/// names that do not exist yet, pass.
void refuse_output_over_inputs(const std::string& command, const std::string& output,
                               const std::vector<std::string>& inputs);

/// Identity of a kernel across profiles: demangled name (common::canonical_kernel_name, so ncu's
/// and libirf's spellings agree) and launch configuration.
[[nodiscard]] std::string launch_key(const model::KernelRecord& kernel);

/// Pairs of (before index, after index) matched by canonical name and launch configuration,
/// then by canonical name alone (leftovers in file order), then by qualified name without the
/// parameters plus grid and block where that leaves one kernel on each side; unmatched indices
/// are returned in `only_before` / `only_after`. Pairs are in `after` order.
struct KernelMatch {
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::vector<std::size_t> only_before, only_after;
};
[[nodiscard]] KernelMatch match_kernels(const std::vector<model::KernelRecord>& before,
                                        const std::vector<model::KernelRecord>& after);

/// Demangled name -> display name (common::display_names in `mode`) for every kernel of `a` and
/// `b`, computed over both so one kernel reads the same on each side and distinct ones differ;
/// cut to `max_chars` (0: not cut).
[[nodiscard]] std::map<std::string, std::string>
name_labels(const std::vector<model::KernelRecord>& a, const std::vector<model::KernelRecord>& b,
            common::NameMode mode = common::NameMode::function,
            std::size_t max_chars = model::k_label_width);

/// Durations as every tool prints them (common/time_format.hpp).
using common::format_time;

/// The kernel's total time (format_time), or "no time" for an import without a duration.
[[nodiscard]] std::string format_total_time(const model::KernelRecord& kernel);

/// A number with `digits` significant digits (printf %g), or "-" when absent.
[[nodiscard]] std::string format_number(std::optional<double> value, int digits = 3);

/// A signed share in percent with one decimal, "+12.5%" (a projection's error).
[[nodiscard]] std::string signed_percent(double share);

/// "grid [a,b,c] block [x,y,z]".
[[nodiscard]] std::string format_launch(const model::LaunchConfig& launch);

/// Directory of the running binary ("" when /proc/self/exe cannot be read): the anchor of an
/// installed irf's share/ and lib/ directories.
[[nodiscard]] std::string exe_dir();

/// The GPU a profile ran on, for messages: "NVIDIA H100 80GB HBM3 (GH100, cc 9.0)", escaped.
[[nodiscard]] std::string describe_gpu(const model::GpuInfo& gpu);

} // namespace irf::report
