// SPDX-License-Identifier: Apache-2.0
// What the profiler said about its own run, from the log lines of an export (ncu's "==PROF==",
// "==ERROR==", "==WARNING==", nvprof's "==PID=="): the failures reach the import's warnings and
// the profile, naming the kernel and launch (docs/import.md, "The profiler's own messages").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace irf::import {

/// Reads a file's log lines in order and keeps those that say profiling failed or was partial.
class ProfilerLog {
public:
    /// One log line (starting "=="), without its line end.
    void line(const std::string& text);

    /// The messages kept, in order, each once: "ncu failed to profile kernel K (launch N)",
    /// ncu's other ==ERROR== lines and its ==WARNING== lines other than notes, nvprof's errors.
    [[nodiscard]] const std::vector<std::string>& messages() const { return m_messages; }

    /// Messages beyond this many are counted in one last message.
    static constexpr std::size_t k_max_messages = 20;

private:
    void keep(const std::string& message);
    std::vector<std::string> m_messages;
    std::size_t m_dropped = 0;
    std::string m_kernel; ///< the kernel ncu was last profiling ("==PROF== Profiling "K" - N")
    std::string m_launch; ///< and its launch number
};

} // namespace irf::import
