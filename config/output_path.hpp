// SPDX-License-Identifier: Apache-2.0
// Where a process writes its profile: the one computation shared by libirf (at load and at exit)
// and `irf run` (before it execs the application), so both name the same file.
#pragma once

#include <optional>
#include <string>

namespace irf::config {

/// Short host name (up to the first '.'), "host" when unknown.
[[nodiscard]] std::string short_host_name();

/// The stem a process writes: IRF_OUTPUT `stem` with "-r%r" when `rank` is set, expanded with
/// `app`, this host, this pid (or `pid` when given) and the process environment, then made
/// absolute against `start_dir` when relative ("" leaves it relative). Throws
/// std::invalid_argument (one line naming IRF_OUTPUT) like expand_stem.
[[nodiscard]] std::string process_output_stem(const std::string& stem, const std::string& app,
                                              std::optional<int> rank, const std::string& start_dir,
                                              std::optional<int> pid = std::nullopt);

/// The stem of a forked child `pid` of `parent_pid`: process_output_stem, or, when that names
/// its parent's file too (IRF_OUTPUT without %p, the `irf run -o NAME` case), the same with
/// "-child<pid>" appended: beside the parent's profile, never over it.
[[nodiscard]] std::string forked_child_stem(const std::string& stem, const std::string& app,
                                            std::optional<int> rank, const std::string& start_dir,
                                            int parent_pid, int pid);

/// "" when the names written for `stem` (stem.json, stem.txt and their temporaries) fit
/// NAME_MAX and PATH_MAX; else the problem. Checked before the run: at exit the profile was
/// lost to ENAMETOOLONG (issue #39 item 7).
[[nodiscard]] std::string output_name_problem(const std::string& stem);

/// "" when the names fit (output_name_problem), the directory of `stem` exists and this process
/// may create files in it; else the problem, e.g. "directory prof does not exist".
[[nodiscard]] std::string output_dir_problem(const std::string& stem);

} // namespace irf::config
