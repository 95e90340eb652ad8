// SPDX-License-Identifier: Apache-2.0
// irf-report merge reads each input lean (no counters, no analysis) and then only the slowest
// rank's kernels in full (docs/performance.md, "irf-report merge"): the job must be byte for
// byte the merge of the inputs read in full, for rank profiles and for a tree of merges.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/profile/profile_json.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/merge_files.hpp"
#include "tools/irf_report/merge_profiles.hpp"

namespace irf::test {
namespace test_merge_lean {
namespace {

using nlohmann::json;

class MergeLean : public TempDirTest {
protected:
    // Rank r: the analysed example's kernels (analysis and counters differ per rank), times
    // varied so that the slowest rank differs per kernel and moves as ranks come; odd ranks
    // list their kernels in reverse and even ranks after 0 leave the last one out, so file
    // positions differ from the job's order.
    std::string write_rank(int r) const {
        json doc = json::parse(read_file(data_path("golden/tools_profile_before.json")));
        doc["rank"] = r;
        doc["pid"] = 1000 + r;
        json& kernels = doc["kernels"];
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            json& k = kernels[i];
            const double total = 1000.0 * static_cast<double>(1 + (r * 7 + i * 3) % 11);
            k["time_ns"]["total"] = total;
            k["time_ns"]["max"] = total;
            k["launches"] = 1 + (r + i) % 3;
            // Counters and analysis that say which rank they came from.
            k["counters"]["bytes_global_ld"] = 1e6 * (r + 1) + static_cast<double>(i);
            k["analysis"]["predication"] = 0.5 + 0.01 * r;
            k["notes"] = json::array({"rank " + std::to_string(r)});
        }
        if (r % 2 == 1) {
            std::reverse(kernels.begin(), kernels.end());
        } else if (r > 0) {
            kernels.erase(kernels.size() - 1);
        }
        const std::string path = (m_tmp / ("rank-" + std::to_string(r) + ".json")).string();
        write_file(path, doc.dump(1));
        return path;
    }

    std::vector<std::string> ranks(int from, int to) const {
        std::vector<std::string> out;
        for (int r = from; r < to; ++r) {
            out.push_back(write_rank(r));
        }
        return out;
    }

    static std::string full_merge(const std::vector<std::string>& files) {
        std::vector<model::Profile> inputs;
        for (const std::string& f : files) {
            inputs.push_back(model::load_profile(f));
        }
        return model::dump_profile(report::merge_profiles(inputs, files, false));
    }
};

TEST_F(MergeLean, EqualsTheMergeOfFullReads) {
    const std::vector<std::string> files = ranks(0, 7);
    const std::string full = full_merge(files);
    EXPECT_EQ(model::dump_profile(report::merge_files(files, {false, 1, 2})), full);
    EXPECT_EQ(model::dump_profile(report::merge_files(files, {false, 3, 2})), full);
    // The job's first kernel (the example's kernel 0) takes 1000 * (1 + 7r % 11) ns on rank r:
    // 1, 8, 4, 11, 7, 3, 10 us for ranks 0-6, so rank 3's counters and analysis stand for it.
    const json job = json::parse(full);
    const json& k0 = job["kernels"][0];
    EXPECT_EQ(k0["counters"]["bytes_global_ld"].get<double>(), 4e6);
    EXPECT_DOUBLE_EQ(k0["analysis"]["predication"].get<double>(), 0.53);
}

TEST_F(MergeLean, EqualsTheFullMergeOfATree) {
    const std::vector<std::string> first = ranks(0, 3);
    const std::string part = (m_tmp / "part.json").string();
    write_file(part, model::dump_profile(report::merge_files(first, {false, 1, 2})));
    std::vector<std::string> files = ranks(3, 6);
    files.insert(files.begin(), part);
    EXPECT_EQ(model::dump_profile(report::merge_files(files, {false, 2, 2})), full_merge(files));
}

TEST_F(MergeLean, AFileChangedBetweenTheTwoReadsIsRefused) {
    const std::vector<std::string> files = ranks(0, 2);
    report::JobMerge merge(false);
    for (const std::string& f : files) {
        merge.add_lean(model::load_profile(f, {}, true), f);
    }
    const std::vector<report::JobMerge::Deferred> wanted = merge.deferred();
    ASSERT_FALSE(wanted.empty());
    std::vector<model::KernelRecord> kernels =
        model::load_kernels(wanted[0].file, wanted[0].positions);
    kernels[0].name = "another_kernel";
    try {
        merge.complete(wanted[0], kernels);
        FAIL() << "a different kernel was accepted";
    } catch (const report::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("the file changed while merging"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace test_merge_lean
} // namespace irf::test
