// SPDX-License-Identifier: Apache-2.0
// `irf-report merge RANK.json... -o JOB.json [--jobs N] [--max-memory GB]`: one job profile from
// the profiles of its ranks (or from job profiles merged before), read one at a time.
#include <cstdio>
#include <iostream>

#include "common/cli.hpp"
#include "common/file_io.hpp"
#include "common/text_safety.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/profile/profile_json.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/merge_files.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

struct MergeOptions {
    std::vector<std::string> inputs;
    std::string output;
    MergeRun run;
};

void print_table(const model::Profile& job, const std::string& output) {
    std::printf("merged %zu rank profiles of %s on %s -> %s\n", job.job->files.size(),
                common::printable(job.app).c_str(), describe_gpu(job.gpu).c_str(),
                common::printable(output).c_str());
    std::printf("%-36s %7s %10s %10s %10s %10s %9s %7s\n", "kernel", "ranks", "total", "min",
                "median", "max", "imbalance", "slowest");
    const std::vector<std::string> labels =
        model::kernel_labels(job.kernels, common::NameMode::function, 36);
    for (std::size_t i = 0; i < job.kernels.size(); ++i) {
        const model::RankStats& s = *job.kernels[i].ranks;
        const std::string ranks =
            std::to_string(s.present) + "/" + std::to_string(s.per_rank.size());
        std::printf("%-36s %7s %10s %10s %10s %10s %9s %7d\n", labels[i].c_str(), ranks.c_str(),
                    format_time(job.kernels[i].time_ns.total).c_str(),
                    format_time(s.time_ns.min).c_str(), format_time(s.time_ns.median).c_str(),
                    format_time(s.time_ns.max).c_str(), format_number(s.imbalance).c_str(),
                    s.time_ns.max_rank);
    }
    for (const std::string& w : job.warnings) {
        if (w.rfind("merge: ", 0) == 0) {
            std::fprintf(stderr, "irf-report: warning: %s\n",
                         common::printable(w.substr(7)).c_str());
        }
    }
}

int run_merge(const MergeOptions& o) {
    refuse_output_over_inputs("irf-report merge", o.output, o.inputs);
    const model::Profile job = merge_files(o.inputs, o.run);
    if (const std::string error = model::write_profile_file(o.output, job); !error.empty()) {
        throw InputError(error);
    }
    print_table(job, o.output);
    return 0;
}

const bool s_merge_registered = register_command(
    {"merge", "Merge the rank profiles of a job (or merged parts of it) into one job profile",
     [](CLI::App& sub) -> std::function<int()> {
         auto options = std::make_shared<MergeOptions>();
         sub.add_option("profiles", options->inputs,
                        "Rank profiles (RANK.json...), or job profiles merged before")
             ->required();
         sub.add_option("-o,--output", options->output, "Job profile to write")->required();
         sub.add_flag("--allow-mixed", options->run.allow_mixed,
                      "Merge profiles of different GPUs, ceilings or irf versions (warns)");
         sub.add_option("-j,--jobs", options->run.jobs, "Read up to N inputs at once (default: 1)")
             ->check(common::whole_number(1, 64));
         sub.add_option("--max-memory", options->run.max_memory_gb,
                        "Refuse a merge that would need more than this many GB (default: 2); "
                        "the refusal says what fits (ranks per stage, --jobs 1, or the least "
                        "limit)")
             ->check(CLI::PositiveNumber);
         return [options] { return run_merge(*options); };
     }});

} // namespace
} // namespace irf::report
