// SPDX-License-Identifier: Apache-2.0
// The summary table's tensor and fill columns and per-direction access widths (issue 41 items
// 3, 7 and 8), and their JSON round trip.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/analyze.hpp"
#include "model/profile/profile_json.hpp"
#include "model/summary/summary_table.hpp"
#include "model/summary/text_summary.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_summary_columns {
namespace {

// A 4 B -> 2 B cast (100 LDG of 4 B, 100 STG of 2 B per thread, full warps) and a GEMM that
// issued tensor instructions without the tensor_types group.
Profile cast_and_gemm() {
    Profile p;
    KernelRecord cast = test::kernel_record(1000, 80);
    cast.name = "cast_kernel";
    cast.counters["inst_warp"] = 1000;
    cast.counters["inst_global_ld"] = 100;
    cast.counters["inst_global_st"] = 100;
    cast.counters["sectors_global_ld"] = 400;    // 12800 B / 32
    cast.counters["sectors_global_st"] = 200;    // 6400 B / 32
    cast.counters["bytes_global_ld"] = 12800;    // 100 x 32 x 4
    cast.counters["bytes_global_st"] = 6400;     // 100 x 32 x 2
    cast.counters["thread_class_memory"] = 6400; // 200 full-warp ld/st
    p.kernels.push_back(cast);
    KernelRecord gemm = test::kernel_record(1000, 80);
    gemm.name = "gemm_kernel";
    gemm.counters["inst_warp"] = 1000;
    gemm.counters["inst_tensor"] = 100;
    p.kernels.push_back(gemm);
    return p;
}

TEST(ModelSummaryColumns, CastWidthsAndUncountedTensorWork) {
    Profile p = cast_and_gemm();
    analyze(p, test::v100(), {});
    const std::string text = text_summary(p);
    EXPECT_NE(text.find("unit 4B/2B"), std::string::npos) << text;
    EXPECT_NE(text.find("A/B = loads/stores"), std::string::npos);
    EXPECT_NE(text.find(" tensor"), std::string::npos); // the column appears with tensor work
    EXPECT_NE(text.find("? = tensor instructions whose ops were not counted: IRF_METRICS="
                        "tensor_types or irf run --metrics tensor_types counts them"),
              std::string::npos);
}

TEST(ModelSummaryColumns, CountedTensorWorkReadsItsUseAndRoundTrips) {
    Profile p = cast_and_gemm();
    // 6.25e7 fp16 ops in 1000 ns = 62,500 GFLOP/s of the V100's 125,000: 50.0%
    p.kernels[1].counters["tensor_ops_fp16"] = 6.25e7;
    analyze(p, test::v100(), {});
    EXPECT_NE(text_summary(p).find(" 50.0%"), std::string::npos);
    const Profile back = profile_from_json(nlohmann::json::parse(dump_profile(p)));
    EXPECT_DOUBLE_EQ(*back.kernels[1].analysis->flops->tensor_pipe_pct, 50);
    const GlobalWall& w = *back.kernels[0].analysis->walls.global;
    EXPECT_DOUBLE_EQ(*w.access_bytes_ld, 4);
    EXPECT_DOUBLE_EQ(*w.access_bytes_st, 2);
}

// Without tensor instructions the column stays out (older tables unchanged).
TEST(ModelSummaryColumns, NoTensorColumnWithoutTensorWork) {
    Profile p = cast_and_gemm();
    p.kernels.pop_back();
    analyze(p, test::v100(), {});
    EXPECT_EQ(text_summary(p).find("tensor"), std::string::npos);
}

// Fill on a V100 (80 SMs, cc 7.0: 64 warps and 32 blocks per SM). 40 blocks of 256 threads fit
// 8 per SM, so one wave on 40 of 80 SMs: 40 / (80 x 1) = 50%. 200 blocks of 1024 threads fit 2
// per SM: 160 slots, 1 full wave and a tail of 40, the busiest SM runs 2 + ceil(40 / 80) = 3, so
// 200 / (80 x 3) = 83.3% over 2 waves. 160 such blocks fill both waves: 100%.
TEST(ModelSummaryColumns, FillReadsTheSmsShareAndTheWaves) {
    Profile p;
    const std::pair<std::uint32_t, std::uint32_t> grids[] = {{40, 256}, {200, 1024}, {160, 1024}};
    for (const auto& [blocks, threads] : grids) {
        KernelRecord k = test::kernel_record(1000, blocks);
        k.name = "k" + std::to_string(blocks);
        k.launch.block = {threads, 1, 1};
        p.kernels.push_back(k);
    }
    config::Ceilings v100 = test::v100();
    v100.gpu.sm_limits = test::cc70();
    analyze(p, v100, {});
    EXPECT_EQ(fill_cell(p.kernels[0]), "50%");
    EXPECT_EQ(fill_cell(p.kernels[1]), "83% 2w");
    EXPECT_EQ(fill_cell(p.kernels[2]), "100%");
    const std::string text = text_summary(p);
    EXPECT_NE(text.find("      fill"), std::string::npos) << text;
    EXPECT_NE(text.find("(fill: share of the SMs' time"), std::string::npos);
    const Profile back = profile_from_json(nlohmann::json::parse(dump_profile(p)));
    ASSERT_TRUE(back.kernels[1].analysis->waves);
    EXPECT_EQ(back.kernels[1].analysis->waves->waves, 2u);
    EXPECT_EQ(back.kernels[1].analysis->waves->blocks_per_busiest_sm, 3u);
    EXPECT_EQ(fill_cell(back.kernels[1]), "83% 2w");
}

// Without the GPU's SM limits the waves are not counted: no fill column.
TEST(ModelSummaryColumns, NoFillColumnWithoutSmLimits) {
    Profile p = cast_and_gemm();
    analyze(p, test::v100(), {});
    EXPECT_EQ(fill_cell(p.kernels[0]), "-");
    EXPECT_EQ(text_summary(p).find(" fill"), std::string::npos);
}

// Issue 53 item 10: the table fits the terminal. The full table of cast_and_gemm is wider than
// 100 columns; at 100 the least needed columns go (recover, min, max, ...), every table line
// fits, the kernel, total, bound and roof% stay, and a line names what was left out.
TEST(ModelSummaryColumns, TheTableFitsTheTerminalAndSaysWhatItLeftOut) {
    Profile p = cast_and_gemm();
    analyze(p, test::v100(), {});
    const std::string full = text_summary(p);
    const std::size_t header = full.find("  #  kernel");
    ASSERT_NE(header, std::string::npos) << full;
    const std::size_t full_width = full.find('\n', header) - header;
    EXPECT_GT(full_width, 100u);
    SummaryView view;
    view.max_width = 100;
    const std::string fitted = text_summary(p, view);
    const std::size_t start = fitted.find("  #  kernel");
    const std::size_t end = fitted.find("(left out to fit 100 columns: recover, min, max");
    ASSERT_NE(end, std::string::npos) << fitted;
    std::size_t widest = 0;
    for (std::size_t at = start; at < end;) {
        const std::size_t next = fitted.find('\n', at);
        widest = std::max(widest, next - at);
        at = next + 1;
    }
    EXPECT_LE(widest, 100u) << fitted;
    for (const char* kept : {"kernel", "total", "bound", "roof%"}) {
        EXPECT_NE(fitted.find(kept, start), std::string::npos) << kept;
    }
    EXPECT_EQ(fitted.substr(start, end - start).find("recover"), std::string::npos);
    // No limit: the table as before, nothing said.
    view.max_width = 0;
    EXPECT_EQ(text_summary(p, view), full);
    EXPECT_EQ(full.find("left out to fit"), std::string::npos);
}

} // namespace
} // namespace test_summary_columns
} // namespace irf::model
