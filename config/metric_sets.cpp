// SPDX-License-Identifier: Apache-2.0
// The metric tables: every name was checked with the CUDA 13.0 host API (see docs/metrics.md).
#include "config/metric_sets.hpp"

#include <set>

namespace irf::config {
namespace {

using Family = ChipFamily;

bool is_blackwell(Family f) {
    return f == Family::gb100 || f == Family::gb20x;
}

// Core: instruction, L1, shared, L2, DRAM, sysmem, tensor-pipe, duration and clock counters.
// These are hardware counters (3 passes on GA100/GH100/GB100; Volta's L1 sector counters need
// one pass each, which is why GV100 needs 9).
std::vector<MetricBinding> core_bindings(Family f) {
    std::vector<MetricBinding> b = {
        {"inst_warp", {"smsp__inst_executed.sum"}},
        {"inst_thread", {"smsp__thread_inst_executed_pred_on.sum"}},
        // Global and shared ld/st count only warps with a thread predicated on (_pred_on_any):
        // a predicated-off LDS/STS moves no data, and counting it pushes the wall point right
        // of stride-0 (docs/model.md: IRM 3.2). Same passes as the plain counters.
        {"inst_global_ld", {"smsp__inst_executed_op_global_ld_pred_on_any.sum"}},
        {"inst_global_st", {"smsp__inst_executed_op_global_st_pred_on_any.sum"}},
        {"inst_local_ld", {"smsp__inst_executed_op_local_ld.sum"}},
        {"inst_local_st", {"smsp__inst_executed_op_local_st.sum"}},
        {"inst_shared_ld", {"smsp__inst_executed_op_shared_ld_pred_on_any.sum"}},
        {"inst_shared_st", {"smsp__inst_executed_op_shared_st_pred_on_any.sum"}},
        {"sectors_global_ld", {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}},
        {"sectors_global_st", {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}},
        {"sectors_local_ld", {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"}},
        {"sectors_local_st", {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"}},
        {"wavefronts_shared_ld", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"}},
        {"wavefronts_shared_st", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}},
        // L2 sectors requested by the L1s (srcunit_tex): on GA100/GH100 a request to the far
        // L2 partition also counts at the near one (the fabric), so lts__t_sectors_op_* counts
        // it twice: on an H100, 1.5 x srcunit_tex for streamed data and 2.0 for gathers, while
        // srcunit_tex equals the L1s' requests (docs/validation/h100-counters.md, question 1).
        {"l2_sectors_read", {"lts__t_sectors_srcunit_tex_op_read.sum"}},
        {"l2_sectors_write", {"lts__t_sectors_srcunit_tex_op_write.sum"}},
        {"l2_sectors_atom", {"lts__t_sectors_srcunit_tex_op_atom.sum"}},
        {"l2_sectors_red", {"lts__t_sectors_srcunit_tex_op_red.sum"}},
    };
    // GB20x renamed the DRAM sector counters (dram__sectors_op_*).
    if (f == Family::gb20x) {
        b.push_back({"dram_sectors_read", {"dram__sectors_op_read.sum"}});
        b.push_back({"dram_sectors_write", {"dram__sectors_op_write.sum"}});
    } else {
        b.push_back({"dram_sectors_read", {"dram__sectors_read.sum"}});
        b.push_back({"dram_sectors_write", {"dram__sectors_write.sum"}});
    }
    // Blackwell moved system-memory apertures to the syslts unit.
    const std::string sys = is_blackwell(f) ? "syslts" : "lts";
    b.push_back({"sysmem_sectors_read", {sys + "__t_sectors_aperture_sysmem_op_read.sum"}});
    b.push_back({"sysmem_sectors_write", {sys + "__t_sectors_aperture_sysmem_op_write.sum"}});
    b.push_back({"inst_tensor", {"smsp__inst_executed_pipe_tensor.sum"}});
    // Thread blocks the sampled range ran: equal to the launch's grid when the range holds the
    // one kernel it claims to (issue #17 item 3, docs/cupti-notes.md).
    b.push_back({"ctas_launched", {"sm__ctas_launched.sum"}});
    // LDGSTS (cp.async) copies global -> shared without LSU sectors in L1 (docs/model.md):
    // counted on Ampere and later, where the instruction exists.
    if (f != Family::gv100 && f != Family::tu10x) {
        b.push_back({"inst_ldgsts", {"smsp__inst_executed_op_ldgsts.sum"}});
    }
    b.push_back({"time_ns", {"gpu__time_duration.sum"}});
    b.push_back({"clock_hz", {"sm__cycles_elapsed.avg.per_second"}});
    return b;
}

void add_sass(std::vector<MetricBinding>& b, const std::string& canonical,
              const std::string& metric) {
    b.push_back({canonical, {"smsp__sass_" + metric + ".sum"}, MetricGroup::sass});
}

// FP thread instructions per operation (hierarchical roofline FLOPs).
void add_fp_ops(std::vector<MetricBinding>& b) {
    for (const char* prec : {"d", "f", "h"}) {
        for (const char* op : {"add", "mul", "fma"}) {
            const std::string suffix = std::string(prec) + op;
            add_sass(b, "thread_" + suffix, "thread_inst_executed_op_" + suffix + "_pred_on");
        }
    }
}

// Thread instructions per SASS class: the instruction mix of docs/model.md (IRM Fig. 6)
// (nvprof's inst_integer, inst_fp_32, ...), which counts each instruction once, where the pipe
// counters count an FP16x2 instruction in two pipes on GA10x and later.
void add_sass_classes(std::vector<MetricBinding>& b, Family f) {
    for (const char* cls : {"integer", "bit", "control", "conversion", "memory", "misc",
                            "inter_thread_communication", "fp16", "fp32", "fp64"}) {
        const std::string name = cls;
        const std::string canonical = name == "inter_thread_communication" ? "comm" : name;
        add_sass(b, "thread_class_" + canonical, "thread_inst_executed_op_" + name + "_pred_on");
    }
    if (f != Family::gv100) { // Volta has no uniform datapath
        add_sass(b, "thread_class_uniform", "thread_inst_executed_op_uniform_pred_on");
    }
    if (f == Family::ad10x || f == Family::gh100 || is_blackwell(f)) { // FP8 from Ada on
        add_sass(b, "thread_class_fp8", "thread_inst_executed_op_fp8_pred_on");
    }
}

// L1 and shared traffic the LSU ld/st counters miss (global atomics and reductions, shared
// atomics, LDGSTS), the LDSM/STSM instructions whose wavefronts the shared ld/st wavefronts
// already hold, and the bytes the threads requested (ideal sectors and wavefronts of the walls).
void add_sass_traffic(std::vector<MetricBinding>& b, Family f) {
    const bool has_ldsm = f != Family::gv100;
    const bool has_ldgsts = has_ldsm && f != Family::tu10x;
    const bool has_stsm = f == Family::gh100 || f == Family::gb100 || f == Family::gb20x;
    add_sass(b, "sectors_global_atom", "l1tex_t_sectors_pipe_lsu_mem_global_op_atom");
    add_sass(b, "sectors_global_red", "l1tex_t_sectors_pipe_lsu_mem_global_op_red");
    add_sass(b, "wavefronts_shared_atom", "l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom");
    add_sass(b, "bytes_global_ld", "data_bytes_mem_global_op_ld");
    add_sass(b, "bytes_global_st", "data_bytes_mem_global_op_st");
    add_sass(b, "bytes_shared_ld", "data_bytes_mem_shared_op_ld");
    add_sass(b, "bytes_shared_st", "data_bytes_mem_shared_op_st");
    if (has_ldsm) {
        add_sass(b, "inst_ldsm", "inst_executed_op_ldsm");
        add_sass(b, "bytes_shared_ldsm", "data_bytes_mem_shared_op_ldsm");
    }
    if (has_stsm) {
        add_sass(b, "inst_stsm", "inst_executed_op_shared_stsm");
        add_sass(b, "bytes_shared_stsm", "data_bytes_mem_shared_op_stsm");
    }
    if (has_ldgsts) {
        add_sass(b, "sectors_ldgsts", "l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts");
        add_sass(b, "wavefronts_shared_ldgsts",
                 "l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts");
    }
}

// SASS-patched metrics: one extra pass on every chip, however many (they never share a pass
// with hardware counters; 1 pass alone on GA100/GH100, docs/metrics.md).
std::vector<MetricBinding> sass_bindings(Family f) {
    std::vector<MetricBinding> b;
    add_fp_ops(b);
    add_sass_classes(b, f);
    add_sass_traffic(b, f);
    return b;
}

// Thread instructions of the FP pipes, over 32 x their warp instructions the active share
// Perf_ceil uses (docs/model.md, "FP active share"). The FMA and FP16 pipes cost 0 passes on
// GA100 and 1 on GH100/GB100 beside the rest of the group; FP64 is added only where it costs no
// pass beyond them (TU10x, GA100, GH100; 1 more on GB100, docs/metrics.md).
void add_fp_pipe_threads(std::vector<MetricBinding>& b, Family f, bool separate_fp16) {
    auto add = [&b](const char* canonical, const std::string& pipe) {
        b.push_back({canonical,
                     {"smsp__thread_inst_executed_pipe_" + pipe + "_pred_on.sum"},
                     MetricGroup::pipe_mix});
    };
    add("thread_pipe_fma", "fma");
    add("thread_pipe_fp16", separate_fp16 ? "fp16" : "fma_type_fp16");
    if (f == Family::tu10x || f == Family::ga100 || f == Family::gh100) {
        add("thread_pipe_fp64", "fp64");
    }
}

// Warp instructions per pipe. The FP16 pipe merged into FMA from GA10x on (fma_type_fp16);
// Volta has no uniform datapath.
std::vector<MetricBinding> pipe_mix_bindings(Family f) {
    std::vector<MetricBinding> b;
    auto add = [&b](const char* canonical, const std::string& pipe) {
        b.push_back(
            {canonical, {"smsp__inst_executed_pipe_" + pipe + ".sum"}, MetricGroup::pipe_mix});
    };
    add("inst_pipe_alu", "alu");
    add("inst_pipe_fma", "fma");
    add("inst_pipe_fp64", "fp64");
    const bool separate_fp16 = f == Family::gv100 || f == Family::tu10x || f == Family::ga100;
    add("inst_pipe_fp16", separate_fp16 ? "fp16" : "fma_type_fp16");
    add("inst_pipe_lsu", "lsu");
    add("inst_pipe_xu", "xu");
    add("inst_pipe_tensor", "tensor");
    add("inst_pipe_cbu", "cbu");
    add("inst_pipe_adu", "adu");
    if (f != Family::gv100) {
        add("inst_pipe_uniform", "uniform");
    }
    add_fp_pipe_threads(b, f, separate_fp16);
    return b;
}

std::vector<std::string> tensor_metrics(std::initializer_list<const char*> paths) {
    std::vector<std::string> m;
    for (const char* p : paths) {
        m.push_back(std::string("sm__ops_path_tensor_src_") + p + ".sum");
    }
    return m;
}

// Tensor ops by input type (sm__ops_path_tensor_src_*); names vary most across chips.
std::vector<MetricBinding> tensor_bindings(Family f) {
    std::vector<MetricBinding> b;
    auto add = [&b](const char* canonical, std::vector<std::string> metrics) {
        b.push_back({canonical, std::move(metrics), MetricGroup::tensor_types});
    };
    if (f == Family::gh100) {
        add("tensor_ops_fp16", tensor_metrics({"fp16"}));
    } else if (f == Family::tu10x) {
        // Turing has no bf16/tf32 tensor paths, so its combined fp32-accumulate path is fp16.
        add("tensor_ops_fp16", tensor_metrics({"fp16_dst_fp16", "fp16_bf16_tf32_dst_fp32"}));
    } else {
        add("tensor_ops_fp16", tensor_metrics({"fp16_dst_fp16", "fp16_dst_fp32"}));
    }
    if (f == Family::gv100 || f == Family::tu10x) {
        if (f == Family::tu10x) {
            add("tensor_ops_int8", tensor_metrics({"int8"}));
        }
        return b;
    }
    add("tensor_ops_bf16", tensor_metrics({"bf16_dst_fp32"}));
    add("tensor_ops_tf32", tensor_metrics({"tf32_dst_fp32"}));
    if (f == Family::ad10x || f == Family::gh100) {
        add("tensor_ops_fp8", tensor_metrics({"fp8"}));
    } else if (f == Family::gb100) {
        // GB100 counts FP4/FP6/FP8 on one path; irf reports it as fp8.
        add("tensor_ops_fp8", tensor_metrics({"fp4_fp6_fp8_dst_fp16", "fp4_fp6_fp8_dst_fp32"}));
    } else if (f == Family::gb20x) {
        add("tensor_ops_fp8", tensor_metrics({"fp8_dst_fp16", "fp8_dst_fp32"}));
    }
    add("tensor_ops_fp64", tensor_metrics({"fp64"}));
    add("tensor_ops_int8", tensor_metrics({"int8"}));
    return b;
}

} // namespace

std::optional<ChipFamily> chip_family(std::string_view chip) {
    auto starts = [chip](std::string_view p) { return chip.substr(0, p.size()) == p; };
    if (chip == "GV100" || chip == "GV11B") {
        return Family::gv100;
    }
    if (starts("TU1")) {
        return Family::tu10x;
    }
    if (chip == "GA100") {
        return Family::ga100;
    }
    if (starts("GA10")) {
        return Family::ga10x;
    }
    if (starts("AD10")) {
        return Family::ad10x;
    }
    if (chip == "GH100") {
        return Family::gh100;
    }
    if (starts("GB1")) {
        return Family::gb100;
    }
    if (starts("GB20")) {
        return Family::gb20x;
    }
    return std::nullopt;
}

std::string_view family_name(ChipFamily family) {
    switch (family) {
    case Family::gv100:
        return "gv100";
    case Family::tu10x:
        return "tu10x";
    case Family::ga100:
        return "ga100";
    case Family::ga10x:
        return "ga10x";
    case Family::ad10x:
        return "ad10x";
    case Family::gh100:
        return "gh100";
    case Family::gb100:
        return "gb100";
    case Family::gb20x:
        return "gb20x";
    }
    return "unknown";
}

std::vector<std::string> reference_chips() {
    return {"GV100", "TU102", "GA100", "GA102", "AD102", "GH100", "GB100", "GB202"};
}

std::string_view group_name(MetricGroup group) {
    switch (group) {
    case MetricGroup::core:
        return "core";
    case MetricGroup::sass:
        return "sass";
    case MetricGroup::pipe_mix:
        return "pipe_mix";
    case MetricGroup::tensor_types:
        return "tensor_types";
    }
    return "unknown";
}

std::vector<MetricBinding> group_bindings(ChipFamily family, MetricGroup group) {
    switch (group) {
    case MetricGroup::core:
        return core_bindings(family);
    case MetricGroup::sass:
        return sass_bindings(family);
    case MetricGroup::pipe_mix:
        return pipe_mix_bindings(family);
    case MetricGroup::tensor_types:
        return tensor_bindings(family);
    }
    return {};
}

std::vector<MetricBinding> metric_bindings(ChipFamily family, bool pipe_mix, bool tensor_types) {
    std::vector<MetricBinding> all = core_bindings(family);
    auto append = [&all](std::vector<MetricBinding> more) {
        all.insert(all.end(), more.begin(), more.end());
    };
    append(sass_bindings(family));
    if (pipe_mix) {
        append(pipe_mix_bindings(family));
    }
    if (tensor_types) {
        append(tensor_bindings(family));
    }
    return all;
}

std::vector<std::string> metric_names(const std::vector<MetricBinding>& bindings) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (const auto& binding : bindings) {
        for (const auto& metric : binding.metrics) {
            if (seen.insert(metric).second) {
                names.push_back(metric);
            }
        }
    }
    return names;
}

} // namespace irf::config
