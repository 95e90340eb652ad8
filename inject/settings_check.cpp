// SPDX-License-Identifier: Apache-2.0
// Settings checked at load (issue: bad values were found only when the job ended, or never
// without a GPU).
#include "inject/settings_check.hpp"

#include "common/log.hpp"
#include "config/gpu_database.hpp"
#include "config/output_path.hpp"
#include "config/rank.hpp"
#include "inject/process_info.hpp"

namespace irf::inject {
namespace {

/// One error line "NAME=value: problem; <effect>", logged and kept for the profile's warnings.
void report(RunInfo& run, const std::string& name, const std::string& value,
            const std::string& problem, const std::string& effect) {
    const std::string line = name + "=" + value + ": " + problem + "; " + effect;
    common::log_line(common::LogLevel::error, line);
    run.config_errors.push_back(line);
}

void check_ceilings(RunInfo& run, const std::vector<std::string>& dirs) {
    if (run.config.ceilings.empty()) {
        return;
    }
    try {
        (void)config::load_named_ceilings(run.config.ceilings, dirs, "IRF_CEILINGS");
    } catch (const std::exception& e) {
        report(run, "IRF_CEILINGS", run.config.ceilings, e.what(), "ignored, using default");
        run.config.ceilings.clear();
    }
}

void check_targets(RunInfo& run, const std::vector<std::string>& dirs) {
    try {
        (void)config::resolve_targets(run.config.targets, dirs);
    } catch (const std::exception& e) {
        report(run, "IRF_TARGETS", run.config.targets, e.what(), "ignored, using default");
        run.config.targets = "all";
    }
}

void check_output(RunInfo& run) {
    const std::string stem = output_stem(run, app_name(read_argv()), config::detect_rank());
    const std::string problem = config::output_dir_problem(stem);
    if (!problem.empty()) {
        report(run, "IRF_OUTPUT", run.config.output, problem, "the profile cannot be written");
    }
}

} // namespace

void check_settings_at_start(RunInfo& run) noexcept {
    try {
        const std::vector<std::string> dirs = config::gpus_dirs(run.library_dir);
        check_ceilings(run, dirs);
        check_targets(run, dirs);
        check_output(run);
    } catch (...) { // a check that cannot run leaves the setting to the exit-time path
    }
}

} // namespace irf::inject
