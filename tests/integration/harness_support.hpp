// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the libirf.so integration tests: run the harness with IRF_* settings.
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {

/// Path of a script under tests/data/fake.
inline std::string fake_script(const std::string& name) {
    return std::string(IRF_TEST_DATA_DIR) + "/fake/" + name;
}

/// Options of a harness run with `env`: every IRF_* and rank variable of the outer environment
/// is removed first (unless `env` sets it), so the tests do not depend on where they run.
inline RunOptions isolated_run_options(const std::map<std::string, std::string>& env) {
    RunOptions options;
    options.env = env;
    options.unset = {"IRF_OUTPUT",
                     "IRF_SUMMARY",
                     "IRF_KERNELS",
                     "IRF_EXCLUDE",
                     "IRF_NVTX_INCLUDE",
                     "IRF_NVTX_EXCLUDE",
                     "IRF_CAPTURE_RANGE",
                     "IRF_LAUNCH_SKIP",
                     "IRF_LAUNCH_COUNT",
                     "IRF_SAMPLES",
                     "IRF_REPLAY",
                     "IRF_TIMING",
                     "IRF_GRAPH_TIMING",
                     "IRF_TENSOR_TYPES",
                     "IRF_CEILINGS",
                     "IRF_TARGETS",
                     "IRF_GPUS_DIR",
                     "IRF_CALLSTACK",
                     "IRF_LOG",
                     "IRF_DISABLE",
                     "IRF_BACKEND",
                     "IRF_METRICS",
                     "OMPI_COMM_WORLD_RANK",
                     "PMI_RANK",
                     "PMIX_RANK",
                     "SLURM_PROCID",
                     "MV2_COMM_WORLD_RANK",
                     "SLURM_JOB_ID",
                     "PBS_JOBID",
                     "LSB_JOBID",
                     "COBALT_JOBID",
                     "FLUX_JOB_ID",
                     "JOB_ID"};
    for (const auto& entry : env) {
        options.unset.erase(std::remove(options.unset.begin(), options.unset.end(), entry.first),
                            options.unset.end());
    }
    options.timeout_s = 60;
    return options;
}

/// Runs the harness on libirf.so with `env` (see isolated_run_options) and `modes`.
inline ProcessResult run_harness(const std::map<std::string, std::string>& env,
                                 const std::vector<std::string>& modes = {}) {
    std::vector<std::string> argv = {IRF_HARNESS_BIN, IRF_LIBIRF};
    argv.insert(argv.end(), modes.begin(), modes.end());
    return run_process(argv, isolated_run_options(env));
}

/// Files in `dir`, names only, sorted.
inline std::vector<std::string> files_in(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

/// Parses a JSON file.
inline nlohmann::json read_json(const std::filesystem::path& path) {
    return nlohmann::json::parse(read_file(path));
}

/// Lines of `text` that start with "[irf]".
inline std::vector<std::string> irf_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::string line = text.substr(start, end == std::string::npos ? end : end - start);
        if (line.rfind("[irf]", 0) == 0) {
            lines.push_back(line);
        }
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return lines;
}

/// The kernel whose demangled name starts with `prefix`; a null json when absent.
inline nlohmann::json kernel_named(const nlohmann::json& profile, const std::string& prefix) {
    for (const auto& k : profile.at("kernels")) {
        if (k.at("name").get<std::string>().rfind(prefix, 0) == 0) {
            return k;
        }
    }
    return nullptr;
}

} // namespace irf::test
