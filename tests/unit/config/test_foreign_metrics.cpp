// SPDX-License-Identifier: Apache-2.0
// config/foreign_metrics: ncu and nvprof names -> canonical counters (docs/import.md, "Names").
#include <algorithm>

#include <gtest/gtest.h>

#include "config/foreign_metrics.hpp"
#include "config/metric_sets.hpp"

namespace irf::config {
namespace test_foreign_metrics {
namespace {

TEST(ForeignMetrics, EveryMetricLibirfCollectsIsReadAtRankZero) {
    // One table: the metric sets of every chip are the exact ncu names.
    for (const std::string& chip : reference_chips()) {
        for (const MetricBinding& b : metric_bindings(*chip_family(chip), true, true)) {
            for (const std::string& name : b.metrics) {
                const auto all = ncu_metric(name);
                const auto m = std::find_if(all.begin(), all.end(), [&b](const auto& f) {
                    return f.canonical == b.canonical;
                });
                ASSERT_NE(m, all.end()) << name << " -> " << b.canonical;
                EXPECT_EQ(m->rank, 0) << name;
            }
        }
    }
}

TEST(ForeignMetrics, VariantsRankBelowTheExactNames) {
    const auto plain = ncu_metric("smsp__inst_executed_op_global_ld.sum").at(0);
    EXPECT_EQ(plain.canonical, "inst_global_ld");
    EXPECT_GT(plain.rank, 0);
    EXPECT_FALSE(plain.note.empty()); // predicated-off warps: IRM 3.2
    const auto l2 = ncu_metric("lts__t_sectors_op_read.sum").at(0);
    EXPECT_EQ(l2.canonical, "l2_sectors_read");
    EXPECT_GT(l2.rank, ncu_metric("lts__t_sectors_srcunit_tex_op_read.sum").at(0).rank);
    EXPECT_EQ(ncu_metric("Duration").at(0).kind, ForeignKind::time);
    EXPECT_TRUE(ncu_metric("Elapsed Cycles").empty());
}

TEST(ForeignMetrics, BytesBecomeSectorsOnlyAsAFallback) {
    const auto bytes = ncu_metric("dram__bytes_read.sum").at(0);
    EXPECT_EQ(bytes.canonical, "dram_sectors_read");
    EXPECT_EQ(bytes.kind, ForeignKind::bytes);
    EXPECT_DOUBLE_EQ(bytes.divisor, 32); // 32-byte sectors
    EXPECT_GT(bytes.rank, ncu_metric("dram__sectors_read.sum").at(0).rank);
    // A total without its split is counted as reads, its partner made an explicit 0.
    const auto total = ncu_metric("dram__bytes.sum").at(0);
    EXPECT_EQ(total.zero_partners, std::vector<std::string>{"dram_sectors_write"});
}

TEST(ForeignMetrics, GlobalEfficiencyIsBytesPerSector) {
    // 100% efficiency = 32 bytes used per 32-byte sector: the value / (100 / 32).
    for (const auto& m :
         {ncu_metric("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct").at(0),
          nvprof_metric("gld_efficiency").at(0)}) {
        EXPECT_EQ(m.canonical, k_bytes_per_sector_ld);
        EXPECT_EQ(m.kind, ForeignKind::percent);
        EXPECT_DOUBLE_EQ(100 / m.divisor, 32);
    }
    EXPECT_EQ(nvprof_metric("gst_efficiency").at(0).canonical, k_bytes_per_sector_st);
}

TEST(ForeignMetrics, NvprofNamesOfTheIrmWorkflow) {
    // IRM 3.2's nvprof metrics.
    const std::pair<const char*, const char*> expected[] = {
        {"inst_executed", "inst_warp"},
        {"gld_transactions", "sectors_global_ld"},
        {"shared_store_transactions", "wavefronts_shared_st"},
        {"l2_read_transactions", "l2_sectors_read"},
        {"dram_write_transactions", "dram_sectors_write"},
        {"inst_executed_global_loads", "inst_global_ld"},
        {"flop_count_dp_fma", "thread_dfma"},
        {"flop_count_sp_add", "thread_fadd"},
    };
    for (const auto& [name, canonical] : expected) {
        const auto all = nvprof_metric(name);
        ASSERT_EQ(all.size(), 1u) << name;
        const auto* m = &all.front();
        EXPECT_EQ(m->canonical, canonical) << name;
    }
    EXPECT_LT(nvprof_metric("not_predicated_off_thread_inst_executed").at(0).rank,
              nvprof_metric("thread_inst_executed").at(0).rank);
    // the SM activity, a percentage per launch
    for (const char* name : {"sm_efficiency", "sm_activity"}) {
        const ForeignMetric m = nvprof_metric(name).at(0);
        EXPECT_EQ(m.canonical, "sm_active_share") << name;
        EXPECT_EQ(m.kind, ForeignKind::percent) << name;
        EXPECT_DOUBLE_EQ(m.divisor, 100) << name;
    }
    // one or the other, never their sum
    EXPECT_LT(nvprof_metric("sm_efficiency").at(0).rank, nvprof_metric("sm_activity").at(0).rank);
    // a total (no add/mul/fma split): the precision's FLOPs, used where the split is absent
    ASSERT_EQ(nvprof_metric("flop_count_sp").size(), 1u);
    EXPECT_EQ(nvprof_metric("flop_count_sp").front().canonical, "flops_fp32");
}

TEST(ForeignMetrics, ChipOfComputeCapability) {
    EXPECT_EQ(chip_of_cc("7.0"), "GV100");
    EXPECT_EQ(chip_of_cc("8.6"), "GA10x");
    EXPECT_EQ(chip_of_cc("9.0"), "GH100");
    EXPECT_EQ(chip_of_cc("12.0"), "GB20x");
    EXPECT_EQ(chip_of_cc("5.2"), "");
    // Every chip named is one the metric sets know.
    for (const char* cc : {"7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}) {
        EXPECT_TRUE(chip_family(chip_of_cc(cc)).has_value()) << cc;
    }
}

} // namespace
} // namespace test_foreign_metrics
} // namespace irf::config
