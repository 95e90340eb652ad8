// SPDX-License-Identifier: Apache-2.0
// irf-report merge: rank profiles of one job -> one job profile with per-rank statistics, read
// one input at a time (docs/tools.md, "irf-report merge").
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/profile/profile.hpp"
#include "tools/irf_report/merge_warnings.hpp"

namespace irf::report {

/// Folds rank profiles, or job profiles merged before (a tree of merges), into one job profile,
/// one input at a time. Kernels are matched by name and launch configuration: launches and time
/// are summed, counters and analysis are those of the slowest rank; only each kernel's and NVTX
/// region's launches and time per rank are kept of every input, so a merged input adds its
/// ranks exactly as its own inputs would have. Identical warnings of several ranks are kept
/// once, naming the ranks.
class JobMerge {
public:
    explicit JobMerge(bool allow_mixed) : m_allow_mixed(allow_mixed) {}

    /// Adds `input`, read from `file`. Throws InputError on a rank given twice (or one run twice),
    /// and on a GPU, ceilings or irf version other than the first input's unless allow_mixed
    /// (then each difference becomes a warning).
    void add(const model::Profile& input, const std::string& file);
    /// As add, for `input` read lean (model::load_profile's `lean`: kernels without counters
    /// and analysis): those of the kernels the job keeps are asked for by deferred().
    void add_lean(const model::Profile& input, const std::string& file);

    /// Kernels of one input read lean whose counters and analysis the job keeps.
    struct Deferred {
        std::string file;
        std::vector<std::size_t> positions; ///< ascending indices into the file's kernels
        std::vector<std::size_t> pending;   ///< the job's kernel of each position
    };
    /// What finish() still needs: one request per input read lean that has a slowest kernel.
    [[nodiscard]] std::vector<Deferred> deferred() const;
    /// Fills in `request`'s kernels from `kernels`, read in full from its file (one per position).
    /// Throws InputError when one is not the kernel that was added (the file changed meanwhile).
    void complete(const Deferred& request, const std::vector<model::KernelRecord>& kernels);

    /// Ranks added so far.
    [[nodiscard]] std::size_t ranks() const { return m_info.ranks.size(); }
    /// Distinct kernels (name and launch configuration) so far.
    [[nodiscard]] std::size_t kernels() const { return m_kernels.size(); }

    /// The job profile (docs/output-schema.md, "Merged job profiles"); call once, after the last
    /// add.
    [[nodiscard]] model::Profile finish();

private:
    // One kernel of the job: its record (the slowest rank's counters and analysis) and the ranks
    // that ran it.
    struct Pending {
        model::KernelRecord record;
        std::vector<model::RankShare> shares;
        double slowest_ns = 0;
        int slowest_rank = 0;
        /// Input (position among the inputs) and kernel index whose counters and analysis are
        /// still to be read; npos once they are in `record`.
        std::size_t deferred_input = npos;
        std::size_t deferred_kernel = 0;
    };
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    // Sums that would wrap (counts) or reach infinity (times) stop at the largest value.
    struct Saturating {
        bool saturated = false;
        void add(std::uint64_t& sum, std::uint64_t value);
        void add(double& sum, double value);
    };

    std::vector<int> input_ranks(const model::Profile& input, const std::string& file);
    void check_same_machine(const model::Profile& input, const std::string& file);
    void add_header(const model::Profile& input);
    void add_input(const model::Profile& input, const std::string& file, bool lean);
    void add_kernel(const model::KernelRecord& k, const std::vector<int>& ranks, bool merged,
                    std::size_t lean_position);
    void add_region_shares(const model::Profile& input, int rank);
    [[nodiscard]] model::RankStats over_all_ranks(std::vector<model::RankShare> present) const;

    bool m_allow_mixed;
    std::size_t m_inputs = 0;
    model::Profile m_job; ///< the first input's header, then the sums
    std::string m_first_file;
    model::JobInfo m_info;
    std::set<std::string> m_hosts;
    std::map<int, std::string> m_rank_files;
    std::map<std::string, std::string> m_runs; ///< host|pid|start of rank-less inputs -> file
    std::vector<std::string> m_input_files;    ///< each input's file, in order
    std::vector<std::string> m_merge_warnings;
    MergeWarnings m_warnings;
    Saturating m_sums;
    std::unordered_map<std::string, std::size_t> m_index; ///< launch key -> m_kernels position
    std::vector<Pending> m_kernels;
    std::map<std::string, std::map<int, model::RankShare>> m_region_shares; ///< path -> rank
};

/// Every input of `inputs` (read from `files`) through one JobMerge, in order.
[[nodiscard]] model::Profile merge_profiles(const std::vector<model::Profile>& inputs,
                                            const std::vector<std::string>& files,
                                            bool allow_mixed);

} // namespace irf::report
