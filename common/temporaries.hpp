// SPDX-License-Identifier: Apache-2.0
// The tools' temporaries: an interrupted write leaves no OUT.tmp.<pid>.<n> behind.
#pragma once

#include <string>

namespace irf::common {

/// The temporary of an atomic write of `path`: "<path>.tmp.<pid>.<24 random bits>".
[[nodiscard]] std::string temporary_name(const std::string& path);

/// For the tools (common::run_tool: irf-report, irf, irf-calibrate), never libirf, which has its
/// own handlers: SIGINT, SIGTERM and SIGHUP remove the temporaries of writes under way, then end
/// the process by that signal as before; SIGXFSZ (over a file-size limit) is taken by a handler
/// that does nothing, so the write fails with EFBIG, its temporary is removed and the tool says so
/// in one line. A signal the process ignores stays ignored; handlers are reset by exec, so an
/// application the launcher starts inherits none of this. Calling it again changes nothing.
void remove_temporaries_on_signals() noexcept;

/// The atomic writers (common/file_io) tell of a temporary once it exists (`name`) and once it is
/// gone (nullptr): `on_temporary` (libirf's, when given) and, per thread, the tools' handlers
/// once remove_temporaries_on_signals was called.
void tell_temporary(void (*on_temporary)(const char*), const char* name) noexcept;

} // namespace irf::common
