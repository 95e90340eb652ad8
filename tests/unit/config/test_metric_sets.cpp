// SPDX-License-Identifier: Apache-2.0
// Unit tests of the canonical-counter -> CUPTI metric tables (config/metric_sets).
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "config/metric_sets.hpp"
#include "tests/support/design_counters.hpp"

namespace irf::config {
namespace test_metric_sets {
namespace {

const MetricBinding* find(const std::vector<MetricBinding>& bindings, const std::string& name) {
    const auto it = std::find_if(bindings.begin(), bindings.end(),
                                 [&name](const MetricBinding& b) { return b.canonical == name; });
    return it == bindings.end() ? nullptr : &*it;
}

TEST(MetricSets, ChipFamilies) {
    EXPECT_EQ(chip_family("GV100"), ChipFamily::gv100);
    EXPECT_EQ(chip_family("TU117"), ChipFamily::tu10x);
    EXPECT_EQ(chip_family("GA100"), ChipFamily::ga100);
    EXPECT_EQ(chip_family("GA10B"), ChipFamily::ga10x);
    EXPECT_EQ(chip_family("AD104"), ChipFamily::ad10x);
    EXPECT_EQ(chip_family("GH100"), ChipFamily::gh100);
    EXPECT_EQ(chip_family("GB110"), ChipFamily::gb100);
    EXPECT_EQ(chip_family("GB20B"), ChipFamily::gb20x);
    EXPECT_FALSE(chip_family("GK110").has_value());
    EXPECT_FALSE(chip_family("").has_value());
}

TEST(MetricSets, ReferenceChipsCoverEveryFamily) {
    std::set<ChipFamily> families;
    for (const auto& chip : reference_chips()) {
        const auto family = chip_family(chip);
        ASSERT_TRUE(family.has_value()) << chip;
        families.insert(*family);
    }
    EXPECT_EQ(families.size(), 8u);
}

// Issue #18 item 6's counters per chip: the instruction classes and the traffic the LSU ld/st
// counters miss, where the chip has the instruction (LDSM from Turing, LDGSTS from Ampere, STSM
// from Hopper, FP8 from Ada, the uniform datapath from Turing).
std::vector<std::string> item6_counters(ChipFamily f) {
    std::vector<std::string> names = {
        "thread_class_integer",    "thread_class_bit",    "thread_class_control",
        "thread_class_conversion", "thread_class_memory", "thread_class_misc",
        "thread_class_comm",       "thread_class_fp16",   "thread_class_fp32",
        "thread_class_fp64",       "sectors_global_atom", "sectors_global_red",
        "wavefronts_shared_atom",  "bytes_global_ld",     "bytes_global_st",
        "bytes_shared_ld",         "bytes_shared_st"};
    const bool volta = f == ChipFamily::gv100, turing = f == ChipFamily::tu10x;
    const bool hopper_on =
        f == ChipFamily::gh100 || f == ChipFamily::gb100 || f == ChipFamily::gb20x;
    if (!volta) {
        names.insert(names.end(), {"thread_class_uniform", "inst_ldsm", "bytes_shared_ldsm"});
    }
    if (!volta && !turing) {
        names.insert(names.end(), {"sectors_ldgsts", "wavefronts_shared_ldgsts"});
    }
    if (hopper_on) {
        names.insert(names.end(), {"inst_stsm", "bytes_shared_stsm"});
    }
    if (hopper_on || f == ChipFamily::ad10x) {
        names.push_back("thread_class_fp8");
    }
    return names;
}

// The core and sass groups of docs/metrics.md: 25 core + 9 FP counters on every chip, plus
// issue #17's ctas_launched (every chip) and inst_ldgsts (Ampere and later: LDGSTS exists there)
// and issue #18 item 6's counters.
TEST(MetricSets, DefaultSetHasEveryDesignCounter) {
    for (const auto& chip : reference_chips()) {
        const ChipFamily family = *chip_family(chip);
        const bool has_ldgsts = family != ChipFamily::gv100 && family != ChipFamily::tu10x;
        const auto bindings = metric_bindings(family, false, false);
        const auto item6 = item6_counters(family);
        EXPECT_EQ(bindings.size(),
                  test::k_design_default_counters.size() + 1 + (has_ldgsts ? 1 : 0) + item6.size())
            << chip;
        for (const char* name : test::k_design_default_counters) {
            EXPECT_NE(find(bindings, name), nullptr) << chip << " lacks " << name;
        }
        for (const auto& name : item6) {
            EXPECT_NE(find(bindings, name), nullptr) << chip << " lacks " << name;
        }
        EXPECT_NE(find(bindings, "ctas_launched"), nullptr) << chip;
        EXPECT_EQ(find(bindings, "inst_ldgsts") != nullptr, has_ldgsts) << chip;
    }
}

TEST(MetricSets, GroupsAreTagged) {
    const auto core = group_bindings(ChipFamily::gh100, MetricGroup::core);
    const auto sass = group_bindings(ChipFamily::gh100, MetricGroup::sass);
    EXPECT_EQ(core.size(), 27u); // docs/metrics.md's 25 + ctas_launched + inst_ldgsts on GH100
    EXPECT_EQ(sass.size(), 9u + item6_counters(ChipFamily::gh100).size());
    for (const auto& b : sass) {
        EXPECT_EQ(b.group, MetricGroup::sass);
        ASSERT_EQ(b.metrics.size(), 1u);
        EXPECT_EQ(b.metrics[0].rfind("smsp__sass_", 0), 0u) << b.metrics[0];
    }
    EXPECT_EQ(find(sass, "thread_ffma")->metrics[0],
              "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum");
    EXPECT_EQ(find(sass, "thread_class_comm")->metrics[0],
              "smsp__sass_thread_inst_executed_op_inter_thread_communication_pred_on.sum");
    EXPECT_EQ(find(sass, "bytes_global_ld")->metrics[0],
              "smsp__sass_data_bytes_mem_global_op_ld.sum");
}

// Item 6: predicated-off shared/global ld/st do not count, and L2 sectors come from the L1s.
TEST(MetricSets, PredicatedOnLdStAndL2FromL1) {
    const auto gh = group_bindings(ChipFamily::gh100, MetricGroup::core);
    EXPECT_EQ(find(gh, "inst_shared_ld")->metrics[0],
              "smsp__inst_executed_op_shared_ld_pred_on_any.sum");
    EXPECT_EQ(find(gh, "inst_shared_st")->metrics[0],
              "smsp__inst_executed_op_shared_st_pred_on_any.sum");
    EXPECT_EQ(find(gh, "inst_global_ld")->metrics[0],
              "smsp__inst_executed_op_global_ld_pred_on_any.sum");
    EXPECT_EQ(find(gh, "l2_sectors_read")->metrics[0], "lts__t_sectors_srcunit_tex_op_read.sum");
    EXPECT_EQ(find(gh, "l2_sectors_red")->metrics[0], "lts__t_sectors_srcunit_tex_op_red.sum");
}

TEST(MetricSets, RenamedCountersPerChip) {
    const auto gh = metric_bindings(ChipFamily::gh100, false, false);
    const auto gb = metric_bindings(ChipFamily::gb100, false, false);
    const auto gb2 = metric_bindings(ChipFamily::gb20x, false, false);
    EXPECT_EQ(find(gh, "sysmem_sectors_read")->metrics[0],
              "lts__t_sectors_aperture_sysmem_op_read.sum");
    EXPECT_EQ(find(gb, "sysmem_sectors_read")->metrics[0],
              "syslts__t_sectors_aperture_sysmem_op_read.sum");
    EXPECT_EQ(find(gb, "dram_sectors_write")->metrics[0], "dram__sectors_write.sum");
    EXPECT_EQ(find(gb2, "dram_sectors_write")->metrics[0], "dram__sectors_op_write.sum");
    EXPECT_EQ(find(gb2, "sysmem_sectors_write")->metrics[0],
              "syslts__t_sectors_aperture_sysmem_op_write.sum");
}

TEST(MetricSets, PipeMixPerChip) {
    const auto volta = group_bindings(ChipFamily::gv100, MetricGroup::pipe_mix);
    const auto hopper = group_bindings(ChipFamily::gh100, MetricGroup::pipe_mix);
    // 9 warp-instruction pipes (no uniform datapath on Volta) + thread_pipe_fma and _fp16;
    // thread_pipe_fp64 only where it costs no extra pass (TU10x, GA100, GH100).
    EXPECT_EQ(volta.size(), 11u);
    EXPECT_EQ(find(volta, "inst_pipe_uniform"), nullptr);
    EXPECT_EQ(find(volta, "thread_pipe_fp64"), nullptr);
    EXPECT_EQ(find(volta, "inst_pipe_fp16")->metrics[0], "smsp__inst_executed_pipe_fp16.sum");
    EXPECT_EQ(find(volta, "thread_pipe_fp16")->metrics[0],
              "smsp__thread_inst_executed_pipe_fp16_pred_on.sum");
    EXPECT_EQ(hopper.size(), 13u); // 10 + thread_pipe_{fma,fp16,fp64}
    EXPECT_EQ(find(hopper, "inst_pipe_fp16")->metrics[0],
              "smsp__inst_executed_pipe_fma_type_fp16.sum");
    EXPECT_EQ(find(hopper, "thread_pipe_fp16")->metrics[0],
              "smsp__thread_inst_executed_pipe_fma_type_fp16_pred_on.sum");
    EXPECT_EQ(find(hopper, "thread_pipe_fp64")->metrics[0],
              "smsp__thread_inst_executed_pipe_fp64_pred_on.sum");
    EXPECT_EQ(find(group_bindings(ChipFamily::gb100, MetricGroup::pipe_mix), "thread_pipe_fp64"),
              nullptr); // 1 more pass on GB100 (docs/performance.md)
}

TEST(MetricSets, TensorTypesPerChip) {
    const auto ampere = group_bindings(ChipFamily::ga100, MetricGroup::tensor_types);
    const auto hopper = group_bindings(ChipFamily::gh100, MetricGroup::tensor_types);
    const auto volta = group_bindings(ChipFamily::gv100, MetricGroup::tensor_types);
    // Ampere splits fp16 by accumulator type: two metrics summed into one counter.
    EXPECT_EQ(find(ampere, "tensor_ops_fp16")->metrics.size(), 2u);
    EXPECT_EQ(find(ampere, "tensor_ops_fp8"), nullptr); // no FP8 tensor path on GA100
    EXPECT_EQ(find(hopper, "tensor_ops_fp16")->metrics,
              std::vector<std::string>{"sm__ops_path_tensor_src_fp16.sum"});
    EXPECT_EQ(hopper.size(), 6u);
    EXPECT_EQ(volta.size(), 1u);
}

TEST(MetricSets, EveryMetricHasARollup) {
    for (const auto& chip : reference_chips()) {
        for (const auto& name : metric_names(metric_bindings(*chip_family(chip), true, true))) {
            EXPECT_NE(name.find('.'), std::string::npos) << chip << ": " << name;
        }
    }
}

TEST(MetricSets, MetricNamesAreUniqueAndOrdered) {
    // inst_tensor and inst_pipe_tensor share smsp__inst_executed_pipe_tensor.sum.
    const auto bindings = metric_bindings(ChipFamily::gh100, true, false);
    const auto names = metric_names(bindings);
    const std::set<std::string> unique(names.begin(), names.end());
    EXPECT_EQ(unique.size(), names.size());
    EXPECT_EQ(names.size(), bindings.size() - 1); // one metric shared by two bindings
    EXPECT_EQ(names.front(), "smsp__inst_executed.sum");
}

TEST(MetricSets, GroupNames) {
    EXPECT_EQ(group_name(MetricGroup::core), "core");
    EXPECT_EQ(group_name(MetricGroup::sass), "sass");
    EXPECT_EQ(group_name(MetricGroup::tensor_types), "tensor_types");
    EXPECT_EQ(family_name(ChipFamily::gb20x), "gb20x");
}

} // namespace
} // namespace test_metric_sets
} // namespace irf::config
