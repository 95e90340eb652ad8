// SPDX-License-Identifier: Apache-2.0
// irf-report merge's reading of its files (docs/performance.md, "irf-report merge").
#include "tools/irf_report/merge_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <future>

#include "model/profile/profile_json.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/merge_profiles.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

// What one kernel's number for one rank costs until the job is written: its share while
// merging, its per_rank entry in the job, and that entry's text (about 110 bytes pretty);
// measured in docs/performance.md, "irf-report merge".
constexpr double k_bytes_per_rank_entry = 200;
// What reading one input costs, per byte of its file (the text and the profile read lean).
constexpr double k_bytes_per_input_byte = 12;

std::string gigabytes(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g GB", bytes / 1e9);
    return buf;
}

/// Refuses the merge, before it runs out of memory, once the kernels seen so far times the ranks
/// of the job (at least one more for each input still to read) need more than --max-memory; the
/// line says what would fit: stages of so many ranks, else fewer --jobs, else the least
/// --max-memory that merges stages of two ranks (a stage of one rank merges nothing).
void check_memory(const JobMerge& merge, const MergeRun& run, std::size_t inputs_left,
                  double largest_input_bytes) {
    const double ranks = static_cast<double>(merge.ranks() + inputs_left);
    const double kernels = static_cast<double>(merge.kernels());
    const double per_rank = std::max(1.0, kernels) * k_bytes_per_rank_entry;
    const double alone = largest_input_bytes * k_bytes_per_input_byte;
    const double reading = run.jobs * alone;
    const double need = kernels * ranks * k_bytes_per_rank_entry + reading;
    const double limit = run.max_memory_gb * 1e9;
    if (need <= limit) {
        return;
    }
    char head[200];
    std::snprintf(head, sizeof head,
                  "merging %.0f ranks x %.0f kernels needs about %s, over --max-memory %g (GB): ",
                  ranks, kernels, gigabytes(need).c_str(), run.max_memory_gb);
    char advice[400];
    const double group = std::floor((limit - reading) / per_rank);
    if (group >= 2) {
        std::snprintf(advice, sizeof advice,
                      "merge in stages of at most %.0f ranks each (irf-report merge <their files> "
                      "-o part-N.json) and analyse each part, or raise --max-memory (merging the "
                      "parts holds every rank again)",
                      group);
    } else if (run.jobs > 1 && std::floor((limit - alone) / per_rank) >= 2) {
        std::snprintf(advice, sizeof advice,
                      "reading %u inputs at once needs about %s of it; merge with --jobs 1, or "
                      "raise --max-memory",
                      run.jobs, gigabytes(reading).c_str());
    } else {
        // Rounded up to the tenth of a GB, so the figure given is enough.
        const double least = std::ceil((2 * per_rank + alone) / 1e8) / 10;
        std::snprintf(advice, sizeof advice,
                      "reading the largest input (%s) alone needs about %s; raise --max-memory "
                      "to at least %g%s",
                      gigabytes(largest_input_bytes).c_str(), gigabytes(alone).c_str(), least,
                      run.jobs > 1 ? " with --jobs 1" : "");
    }
    throw InputError(std::string(head) + advice);
}

double file_bytes(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? 0.0 : static_cast<double>(size);
}

/// Runs read(i) for i in [0, n), up to `jobs` at once, and use(i, result) in order of i, each
/// result dropped once used.
template <class Read, class Use>
void in_order(std::size_t n, unsigned jobs, const Read& read, const Use& use) {
    std::deque<std::future<decltype(read(std::size_t{0}))>> reading;
    std::size_t next = 0;
    for (std::size_t i = 0; i < n; ++i) {
        while (next < n && reading.size() < jobs) {
            reading.push_back(std::async(std::launch::async, read, next));
            ++next;
        }
        auto result = reading.front().get();
        reading.pop_front();
        use(i, std::move(result));
    }
}

} // namespace

model::Profile merge_files(const std::vector<std::string>& files, const MergeRun& run) {
    JobMerge merge(run.allow_mixed);
    double largest = 0; // of the inputs read so far (up to --jobs ahead)
    std::size_t sized = 0;
    in_order(
        files.size(), run.jobs, [&files](std::size_t i) { return load_input(files[i], true, 1); },
        [&](std::size_t i, const model::Profile& input) {
            for (; sized < std::min<std::size_t>(files.size(), i + run.jobs); ++sized) {
                largest = std::max(largest, file_bytes(files[sized]));
            }
            merge.add_lean(input, files[i]);
            check_memory(merge, run, files.size() - i - 1, largest);
        });
    // The slowest rank's counters and analysis of each kernel, from the files that hold them.
    const std::vector<JobMerge::Deferred> wanted = merge.deferred();
    in_order(
        wanted.size(), run.jobs,
        [&wanted](std::size_t i) {
            try {
                return model::load_kernels(wanted[i].file, wanted[i].positions);
            } catch (const model::FormatError& e) {
                throw InputError(e.what());
            }
        },
        [&](std::size_t i, const std::vector<model::KernelRecord>& kernels) {
            merge.complete(wanted[i], kernels);
        });
    return merge.finish();
}

} // namespace irf::report
