// SPDX-License-Identifier: Apache-2.0
// The foreign-name tables (docs/import.md, "Names"). Exact ncu names come from the metric sets
// of every chip family, so this file lists only the variants and nvprof's names.
#include "config/foreign_metrics.hpp"

#include <map>

#include "config/metric_sets.hpp"

namespace irf::config {
namespace {

using Table = std::map<std::string, std::vector<ForeignMetric>, std::less<>>;

constexpr double k_sector_bytes = 32;

ForeignMetric metric(std::string canonical, int rank, ForeignKind kind = ForeignKind::count,
                     std::string note = {}) {
    ForeignMetric m;
    m.canonical = std::move(canonical);
    m.rank = rank;
    m.kind = kind;
    m.note = std::move(note);
    return m;
}

ForeignKind kind_of_canonical(const std::string& canonical) {
    if (canonical == "time_ns") {
        return ForeignKind::time;
    }
    if (canonical == "clock_hz") {
        return ForeignKind::frequency;
    }
    return canonical.rfind("bytes_", 0) == 0 ? ForeignKind::bytes : ForeignKind::count;
}

// One name may give several canonical counters (smsp__inst_executed_pipe_tensor.sum is both
// inst_tensor and the pipe mix's inst_pipe_tensor); each canonical counter once.
void add(Table& t, const std::string& name, ForeignMetric m) {
    std::vector<ForeignMetric>& list = t[name];
    for (const ForeignMetric& known : list) {
        if (known.canonical == m.canonical) {
            return;
        }
    }
    list.push_back(std::move(m));
}

// Every metric libirf collects on any chip, at rank 0: a file holding them reads like libirf.
void add_metric_sets(Table& t) {
    for (const std::string& chip : reference_chips()) {
        for (const MetricBinding& b : metric_bindings(*chip_family(chip), true, true)) {
            for (const std::string& name : b.metrics) {
                add(t, name, metric(b.canonical, 0, kind_of_canonical(b.canonical)));
            }
        }
    }
}

// A byte counter standing for a sector counter: used only where the file has no sectors.
ForeignMetric from_bytes(const std::string& canonical, int rank, std::string note = {}) {
    ForeignMetric m = metric(canonical, rank, ForeignKind::bytes, std::move(note));
    m.divisor = k_sector_bytes;
    return m;
}

void add_instruction_variants(Table& t) {
    add(t, "sm__inst_executed.sum", metric("inst_warp", 1));
    add(t, "smsp__thread_inst_executed.sum",
        metric(
            "inst_thread", 1, ForeignKind::count,
            "inst_thread from smsp__thread_inst_executed.sum, which counts predicated-off threads "
            "too: predication reads closer to 1"));
    for (const char* op : {"global_ld", "global_st", "shared_ld", "shared_st"}) {
        const std::string canonical = std::string("inst_") + op;
        const std::string note = canonical + " counts warps whose threads are all predicated " +
                                 "off (IRM 3.2): the wall point may sit right of stride-0";
        add(t, std::string("smsp__inst_executed_op_") + op + ".sum",
            metric(canonical, 1, ForeignKind::count, note));
        add(t, std::string("smsp__sass_inst_executed_op_") + op + ".sum",
            metric(canonical, 2, ForeignKind::count, note));
    }
    for (const char* op : {"local_ld", "local_st"}) {
        add(t, std::string("smsp__sass_inst_executed_op_") + op + ".sum",
            metric(std::string("inst_") + op, 1));
    }
    // The memory tables' "sass__" names (older ncu versions, seen in public exports).
    for (const char* space : {"global", "local", "shared"}) {
        for (const auto& [op, plural] : {std::pair{"ld", "loads"}, std::pair{"st", "stores"}}) {
            add(t, std::string("sass__inst_executed_") + space + "_" + plural,
                metric(std::string("inst_") + space + "_" + op, 3));
        }
    }
    add(t, "sm__inst_executed_pipe_tensor.sum", metric("inst_tensor", 1));
    add(t, "sm__inst_executed_pipe_tensor_op_hmma.sum", metric("inst_tensor", 2));
    // NERSC's hierarchical-roofline scripts sum the FP counters per SM (sm__) instead of per
    // sub-partition (smsp__): the same totals.
    for (const char* prec : {"d", "f", "h"}) {
        for (const char* op : {"add", "mul", "fma"}) {
            const std::string suffix = std::string(prec) + op;
            add(t, "sm__sass_thread_inst_executed_op_" + suffix + "_pred_on.sum",
                metric("thread_" + suffix, 1));
        }
    }
}

void add_memory_variants(Table& t) {
    // ncu's own bank-conflict counts: the shared wall's verdict comes from them where a file has
    // them (docs/model.md, "Walls and predication"; issue 53 item 5).
    for (const char* op : {"ld", "st"}) {
        add(t, std::string("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_") + op + ".sum",
            metric(std::string("bank_conflicts_shared_") + op, 0));
    }
    for (const char* space : {"global", "local"}) {
        for (const char* op : {"ld", "st"}) {
            const std::string tail = std::string(space) + "_op_" + op;
            add(t, "l1tex__t_bytes_pipe_lsu_mem_" + tail + ".sum",
                from_bytes(std::string("sectors_") + space + "_" + op, 1));
        }
    }
    const std::string l2_note = "L2 sectors from lts__t_*_op_* (all sources): on GA100/GH100 a "
                                "far-partition request counts twice (docs/metrics.md)";
    for (const char* op : {"read", "write", "atom", "red"}) {
        const std::string canonical = std::string("l2_sectors_") + op;
        add(t, std::string("lts__t_sectors_op_") + op + ".sum",
            metric(canonical, 1, ForeignKind::count, l2_note));
        add(t, std::string("lts__t_bytes_srcunit_tex_op_") + op + ".sum", from_bytes(canonical, 2));
        add(t, std::string("lts__t_bytes_op_") + op + ".sum", from_bytes(canonical, 3, l2_note));
    }
    for (const char* op : {"read", "write"}) {
        add(t, std::string("dram__bytes_") + op + ".sum",
            from_bytes(std::string("dram_sectors_") + op, 1));
        // The same bytes under the name ncu 2026 gives them on GB20x (a public RTX 5070 export).
        add(t, std::string("dram__bytes_op_") + op + ".sum",
            from_bytes(std::string("dram_sectors_") + op, 2));
    }
    // Totals (NERSC's dram__bytes.sum, lts__t_bytes.sum): the level is right, its split is not
    // known, so the total is counted as reads and the note says so.
    ForeignMetric dram_total = from_bytes("dram_sectors_read", 3);
    dram_total.zero_partners = {"dram_sectors_write"};
    dram_total.note =
        "dram_sectors_read holds reads and writes (the file has only dram__bytes.sum)";
    add(t, "dram__bytes.sum", dram_total);
    ForeignMetric dram_sectors_total = dram_total;
    dram_sectors_total.rank = 2;
    dram_sectors_total.divisor = 1;
    dram_sectors_total.kind = ForeignKind::count;
    dram_sectors_total.note = "dram_sectors_read holds reads and writes (the file has only "
                              "dram__sectors.sum)";
    add(t, "dram__sectors.sum", dram_sectors_total);
    ForeignMetric l2_total = from_bytes("l2_sectors_read", 5);
    l2_total.zero_partners = {"l2_sectors_write", "l2_sectors_atom", "l2_sectors_red"};
    l2_total.note = "l2_sectors_read holds all L2 sectors (the file has only lts__t_bytes.sum)";
    add(t, "lts__t_bytes.sum", l2_total);
    // NERSC's L1 level: all tag-stage bytes (global and local, loads and stores).
    ForeignMetric l1_total = from_bytes("sectors_global_ld", 5);
    l1_total.zero_partners = {"sectors_global_st"};
    l1_total.note = "sectors_global_ld holds all L1 sectors, loads and stores, global and local "
                    "(the file has only l1tex__t_bytes.sum)";
    add(t, "l1tex__t_bytes.sum", l1_total);
}

// Global load/store efficiency: bytes requested per 32-byte sector moved, as a percentage of 32
// (100% = 32 bytes). The readers multiply it by the sectors to get the requested bytes.
ForeignMetric efficiency(const char* canonical) {
    ForeignMetric m = metric(canonical, 0, ForeignKind::percent);
    m.divisor = 100 / k_sector_bytes;
    return m;
}

void add_efficiency_variants(Table& t) {
    add(t, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
        efficiency(k_bytes_per_sector_ld));
    add(t, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
        efficiency(k_bytes_per_sector_st));
}

void add_timing_variants(Table& t) {
    add(t, "gpu__time_duration.avg", metric("time_ns", 1, ForeignKind::time));
    add(t, "gpu__time_active.sum", metric("time_ns", 2, ForeignKind::time));
    // One GPU unit: its average is its sum (a public summary export times with it).
    add(t, "gpu__time_active.avg", metric("time_ns", 3, ForeignKind::time));
    add(t, "Duration", metric("time_ns", 4, ForeignKind::time));
    add(t, "SM Frequency", metric("clock_hz", 1, ForeignKind::frequency));
    add(t, "smsp__cycles_elapsed.avg.per_second", metric("clock_hz", 2, ForeignKind::frequency));
}

Table make_ncu_table() {
    Table t;
    add_metric_sets(t);
    add_instruction_variants(t);
    add_memory_variants(t);
    add_efficiency_variants(t);
    add_timing_variants(t);
    return t;
}

// nvprof's names as the IRM paper collects them (docs/model.md: IRM 3.2, Table 1).
Table make_nvprof_table() {
    Table t;
    add(t, "inst_executed", metric("inst_warp", 0));
    add(t, "not_predicated_off_thread_inst_executed", metric("inst_thread", 0));
    add(t, "thread_inst_executed",
        metric("inst_thread", 1, ForeignKind::count,
               "inst_thread from thread_inst_executed, which counts predicated-off threads too"));
    const std::pair<const char*, const char*> direct[] = {
        {"inst_executed_global_loads", "inst_global_ld"},
        {"inst_executed_global_stores", "inst_global_st"},
        {"inst_executed_local_loads", "inst_local_ld"},
        {"inst_executed_local_stores", "inst_local_st"},
        {"inst_executed_shared_loads", "inst_shared_ld"},
        {"inst_executed_shared_stores", "inst_shared_st"},
        {"gld_transactions", "sectors_global_ld"},
        {"gst_transactions", "sectors_global_st"},
        {"local_load_transactions", "sectors_local_ld"},
        {"local_store_transactions", "sectors_local_st"},
        {"shared_load_transactions", "wavefronts_shared_ld"},
        {"shared_store_transactions", "wavefronts_shared_st"},
        {"dram_read_transactions", "dram_sectors_read"},
        {"dram_write_transactions", "dram_sectors_write"},
        {"sysmem_read_transactions", "sysmem_sectors_read"},
        {"sysmem_write_transactions", "sysmem_sectors_write"},
        {"system_read_transactions", "sysmem_sectors_read"},
        {"system_write_transactions", "sysmem_sectors_write"},
    };
    for (const auto& [name, canonical] : direct) {
        add(t, name, metric(canonical, 0));
    }
    const std::string l2_note = "l2_read/write_transactions include atomics and reductions "
                                "(IRM Table 1): l2_sectors_atom/red are not collected";
    add(t, "l2_read_transactions", metric("l2_sectors_read", 0, ForeignKind::count, l2_note));
    add(t, "l2_write_transactions", metric("l2_sectors_write", 0, ForeignKind::count, l2_note));
    // The share of the kernel's time an SM had a warp resident (docs/model.md, "Waves": a grid
    // not recorded is read as one wave from it); sm_activity is its name on cc 6.x, ranked
    // after it so that a file with both does not add them up.
    ForeignMetric active = metric("sm_active_share", 0, ForeignKind::percent);
    active.divisor = 100;
    add(t, "sm_efficiency", active);
    active.rank = 1;
    add(t, "sm_activity", active);
    add(t, "gld_efficiency", efficiency(k_bytes_per_sector_ld));
    add(t, "gst_efficiency", efficiency(k_bytes_per_sector_st));
    add(t, "dram_read_bytes", from_bytes("dram_sectors_read", 1));
    add(t, "dram_write_bytes", from_bytes("dram_sectors_write", 1));
    const std::pair<const char*, const char*> precisions[] = {
        {"dp", "d"}, {"sp", "f"}, {"hp", "h"}};
    const std::pair<const char*, const char*> totals[] = {
        {"dp", "fp64"}, {"sp", "fp32"}, {"hp", "fp16"}};
    for (const auto& [nvprof, prec] : precisions) {
        for (const char* op : {"add", "mul", "fma"}) {
            add(t, std::string("flop_count_") + nvprof + "_" + op,
                metric(std::string("thread_") + prec + op, 0));
        }
    }
    // The aggregates ordinary nvprof exports hold (flop_count_sp alone, e.g.): a precision's
    // FLOPs when its add/mul/fma split is not in the file (docs/import.md, "Names").
    for (const auto& [nvprof, precision] : totals) {
        add(t, std::string("flop_count_") + nvprof, metric(std::string("flops_") + precision, 0));
    }
    return t;
}

std::vector<ForeignMetric> find(const Table& table, std::string_view name) {
    const auto it = table.find(name);
    return it == table.end() ? std::vector<ForeignMetric>{} : it->second;
}

} // namespace

std::vector<ForeignMetric> ncu_metric(std::string_view name) {
    static const Table table = make_ncu_table();
    return find(table, name);
}

std::vector<ForeignMetric> nvprof_metric(std::string_view name) {
    static const Table table = make_nvprof_table();
    return find(table, name);
}

std::string chip_of_cc(std::string_view cc) {
    static const std::map<std::string, std::string, std::less<>> chips = {
        {"7.0", "GV100"},  {"7.2", "GV11B"},  {"7.5", "TU10x"}, {"8.0", "GA100"},
        {"8.6", "GA10x"},  {"8.7", "GA10x"},  {"8.9", "AD10x"}, {"9.0", "GH100"},
        {"10.0", "GB100"}, {"10.3", "GB100"}, {"12.0", "GB20x"}};
    const auto it = chips.find(cc);
    return it == chips.end() ? std::string() : it->second;
}

} // namespace irf::config
