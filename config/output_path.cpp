// SPDX-License-Identifier: Apache-2.0
// The output stem of this process and the check of its directory (issue 21: a missing output
// directory was noticed only when a long job ended).
#include "config/output_path.hpp"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "common/environment.hpp"
#include "config/env.hpp"

namespace irf::config {

std::string short_host_name() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') {
        return "host";
    }
    const std::string host = buf;
    return host.substr(0, host.find('.'));
}

std::string process_output_stem(const std::string& stem, const std::string& app,
                                std::optional<int> rank, const std::string& start_dir,
                                std::optional<int> pid) {
    StemContext context;
    context.app = app;
    context.host = short_host_name();
    context.pid = pid.value_or(::getpid());
    context.rank = rank;
    context.env = common::process_env;
    std::string out = expand_stem(stem_with_rank(stem, rank), context);
    if (!out.empty() && out[0] != '/' && !start_dir.empty()) {
        out = start_dir + "/" + out;
    }
    return out;
}

std::string forked_child_stem(const std::string& stem, const std::string& app,
                              std::optional<int> rank, const std::string& start_dir, int parent_pid,
                              int pid) {
    const std::string own = process_output_stem(stem, app, rank, start_dir, pid);
    if (own != process_output_stem(stem, app, rank, start_dir, parent_pid)) {
        return own;
    }
    return own + "-child" + std::to_string(pid);
}

std::string output_name_problem(const std::string& stem) {
    // The longest name written: "<stem>.json.tmp.<pid>.<random>" (common/file_io.cpp).
    constexpr std::size_t k_longest_suffix = std::char_traits<char>::length(".json.tmp.") + 10 + 9;
    const std::size_t slash = stem.rfind('/');
    const std::size_t name = stem.size() - (slash == std::string::npos ? 0 : slash + 1);
    if (name + k_longest_suffix > NAME_MAX) {
        return "file name is " + std::to_string(name) + " bytes; with its suffixes it must fit " +
               std::to_string(NAME_MAX) + " (NAME_MAX)";
    }
    if (stem.size() + k_longest_suffix >= PATH_MAX) {
        return "path is " + std::to_string(stem.size()) + " bytes; with its suffixes it must fit " +
               std::to_string(PATH_MAX) + " (PATH_MAX)";
    }
    for (std::size_t from = 0; from < stem.size();) {
        const std::size_t to = std::min(stem.find('/', from), stem.size());
        if (to - from > NAME_MAX) {
            return "a directory name is " + std::to_string(to - from) + " bytes, over " +
                   std::to_string(NAME_MAX) + " (NAME_MAX)";
        }
        from = to + 1;
    }
    return "";
}

std::string output_dir_problem(const std::string& stem) {
    if (std::string problem = output_name_problem(stem); !problem.empty()) {
        return problem;
    }
    std::filesystem::path dir = std::filesystem::path(stem).parent_path();
    if (dir.empty()) {
        dir = ".";
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        return "directory " + dir.string() + " does not exist";
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        return "directory " + dir.string() + " not writable";
    }
    return "";
}

} // namespace irf::config
