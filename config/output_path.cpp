// SPDX-License-Identifier: Apache-2.0
// The output stem of this process and the check of its directory (issue 21: a missing output
// directory was noticed only when a long job ended).
#include "config/output_path.hpp"

#include <filesystem>

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
                                std::optional<int> rank, const std::string& start_dir) {
    StemContext context;
    context.app = app;
    context.host = short_host_name();
    context.pid = ::getpid();
    context.rank = rank;
    context.env = common::process_env;
    std::string out = expand_stem(stem_with_rank(stem, rank), context);
    if (!out.empty() && out[0] != '/' && !start_dir.empty()) {
        out = start_dir + "/" + out;
    }
    return out;
}

std::string output_dir_problem(const std::string& stem) {
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
