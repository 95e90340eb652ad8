// SPDX-License-Identifier: Apache-2.0
// `irf-report merge RANK.json... -o JOB.json [--jobs N] [--max-memory GB]`: one job profile from
// the profiles of its ranks (or from job profiles merged before), read one at a time.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <future>
#include <iostream>

#include "common/cli.hpp"
#include "common/file_io.hpp"
#include "common/text_safety.hpp"
#include "model/kernel_labels.hpp"
#include "model/profile_json.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"
#include "tools/irf_report/tools_merge.hpp"

namespace irf::report {
namespace {

// What one kernel's number for one rank costs until the job is written: its share while
// merging, its per_rank entry in the job, and that entry's text (about 110 bytes pretty);
// measured in docs/performance.md, "irf-report merge".
constexpr double k_bytes_per_rank_entry = 200;
// What reading one input costs, per byte of its file (the parsed document and the profile).
constexpr double k_bytes_per_input_byte = 12;

struct MergeOptions {
    std::vector<std::string> inputs;
    std::string output;
    bool allow_mixed = false;
    unsigned jobs = 1;
    double max_memory_gb = 2;
};

std::string gigabytes(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g GB", bytes / 1e9);
    return buf;
}

/// Refuses the merge, before it runs out of memory, once the kernels seen so far times the ranks
/// of the job (at least one more for each input still to read) need more than --max-memory; the
/// line says how large a group of ranks fits.
void check_memory(const JobMerge& merge, const MergeOptions& o, std::size_t inputs_left,
                  double largest_input_bytes) {
    const double ranks = static_cast<double>(merge.ranks() + inputs_left);
    const double kernels = static_cast<double>(merge.kernels());
    const double reading = o.jobs * largest_input_bytes * k_bytes_per_input_byte;
    const double need = kernels * ranks * k_bytes_per_rank_entry + reading;
    const double limit = o.max_memory_gb * 1e9;
    if (need <= limit) {
        return;
    }
    const double group = std::max(1.0, (limit - reading) / (kernels * k_bytes_per_rank_entry));
    char line[600];
    std::snprintf(line, sizeof line,
                  "merging %.0f ranks x %.0f kernels needs about %s, over --max-memory %g (GB): "
                  "merge in stages of at most %.0f ranks each (irf-report merge <their files> "
                  "-o part-N.json) and analyse each part, or raise --max-memory (merging the parts "
                  "holds every rank again)",
                  ranks, kernels, gigabytes(need).c_str(), o.max_memory_gb, std::floor(group));
    throw InputError(line);
}

double file_bytes(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? 0.0 : static_cast<double>(size);
}

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
    JobMerge merge(o.allow_mixed);
    // Up to --jobs inputs are read at once; each is folded in input order, then dropped.
    std::deque<std::future<model::Profile>> reading;
    std::size_t next = 0;
    double largest = 0;
    for (std::size_t i = 0; i < o.inputs.size(); ++i) {
        while (next < o.inputs.size() && reading.size() < o.jobs) {
            largest = std::max(largest, file_bytes(o.inputs[next]));
            reading.push_back(std::async(std::launch::async,
                                         [path = o.inputs[next]] { return load_input(path); }));
            ++next;
        }
        const model::Profile input = reading.front().get();
        reading.pop_front();
        merge.add(input, o.inputs[i]);
        check_memory(merge, o, o.inputs.size() - i - 1, largest);
    }
    const model::Profile job = merge.finish();
    if (const std::string error = common::write_file_atomic(o.output, model::dump_profile(job));
        !error.empty()) {
        throw InputError(error);
    }
    print_table(job, o.output);
    return 0;
}

const bool s_registered = register_command(
    {"merge", "Merge the rank profiles of a job (or merged parts of it) into one job profile",
     [](CLI::App& sub) -> std::function<int()> {
         auto options = std::make_shared<MergeOptions>();
         sub.add_option("profiles", options->inputs,
                        "Rank profiles (RANK.json...), or job profiles merged before")
             ->required();
         sub.add_option("-o,--output", options->output, "Job profile to write")->required();
         sub.add_flag("--allow-mixed", options->allow_mixed,
                      "Merge profiles of different GPUs, ceilings or irf versions (warns)");
         sub.add_option("-j,--jobs", options->jobs, "Read up to N inputs at once (default: 1)")
             ->check(common::whole_number(1, 64));
         sub.add_option("--max-memory", options->max_memory_gb,
                        "Refuse a merge that would need more than this many GB (default: 2); "
                        "the refusal says how many ranks to merge per stage")
             ->check(CLI::PositiveNumber);
         return [options] { return run_merge(*options); };
     }});

} // namespace
} // namespace irf::report
