// SPDX-License-Identifier: Apache-2.0
// Plain ceilings types (schema irf.ceilings/v1): what a GPU can do, with the provenance of each
// value.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace irf::config {

/// Where a ceiling value came from: measured on this machine, a published measurement, a
/// datasheet figure, or a formula from other values.
enum class Provenance { measured, published, spec, derived };

/// Repetition statistics of a measured value (best-of-N with spread).
struct Stats {
    int n = 0;               ///< samples kept
    double best = 0.0;       ///< best sample, in the quantity's unit (the reported value)
    double median = 0.0;     ///< median sample
    double worst = 0.0;      ///< worst sample
    double spread_pct = 0.0; ///< (best - worst) / best x 100
};

/// One ceiling value with its unit and the evidence behind it.
struct Quantity {
    double value = 0.0; ///< in `unit`
    std::string unit;   ///< e.g. "GB/s", "warp-GIPS", "GFLOP/s", "TFLOP/s"
    Provenance provenance = Provenance::spec;
    std::string source;     ///< URL, repo@commit:path, or tool name for measured values
    std::string method;     ///< how it was measured or derived (formula)
    std::string date;       ///< ISO date of the measurement or publication
    std::string driver;     ///< driver version for measured values
    double clock_mhz = 0.0; ///< SM clock the value assumes or was observed at (0 = unknown)
    /// Rate per SM per clock when value = SMs x rate x clock (flop, B, or warp-inst per cycle;
    /// 0 = not given). Lets a value be re-projected to another clock.
    double per_sm_per_clock = 0.0;
    std::uint64_t working_set_bytes = 0; ///< memory levels: bytes touched by the benchmark
    std::optional<Stats> stats;          ///< measured values: best-of-N statistics
    /// Other evidence for the same ceiling (published measurements, other datasheet readings),
    /// kept beside the chosen value for ratios; the model uses `value` only.
    std::vector<Quantity> alternatives;
};

/// Per-SM residency limits of a compute capability (CUDA C++ Programming Guide, technical
/// specifications per compute capability; table in docs/ceilings.md, "SM limits"): what turns a
/// launch's threads, registers and shared memory into resident blocks per SM.
struct SmLimits {
    int max_threads_per_sm = 0;    ///< resident threads per SM
    int max_warps_per_sm = 0;      ///< resident warps per SM (threads / 32)
    int max_blocks_per_sm = 0;     ///< resident blocks per SM
    int max_threads_per_block = 0; ///< threads in one block
    int registers_per_sm = 0;      ///< 32-bit registers per SM
    int max_registers_per_thread = 0;
    int register_alloc_unit = 0;       ///< a warp's registers are allocated in multiples of this
    int shared_bytes_per_sm = 0;       ///< shared memory per SM at the largest carveout
    int shared_bytes_per_block = 0;    ///< largest shared memory one block may opt in to
    int shared_reserved_per_block = 0; ///< shared memory the system keeps per block (1 KB, cc >= 8)
    int shared_alloc_unit = 0; ///< a block's shared memory is allocated in multiples of this
    std::string source;        ///< document the limits come from
};

/// The GPU a ceilings entry describes.
struct GpuIdentity {
    std::string name;           ///< marketing name, e.g. "NVIDIA H100 SXM5 80GB"
    std::string key;            ///< database key, e.g. "h100-sxm5" (file stem in config/gpus/)
    std::string chip;           ///< e.g. "GH100"
    std::string cc;             ///< compute capability, e.g. "9.0"
    int sms = 0;                ///< streaming multiprocessors
    int schedulers_per_sm = 4;  ///< warp schedulers per SM (issue slots per clock)
    double boost_clock_mhz = 0; ///< max SM clock
    double base_clock_mhz = 0;  ///< base SM clock (0 = unknown)
    std::uint64_t l2_bytes = 0; ///< L2 capacity
    std::uint64_t memory_bytes = 0;
    std::string memory_type; ///< e.g. "HBM3"
    /// Device-name substrings (case-insensitive) that identify this SKU, e.g. "H100 80GB HBM3".
    std::vector<std::string> aliases;
    std::optional<SmLimits> sm_limits; ///< absent: blocks per SM and waves are not computed
};

/// All ceilings of one GPU. Optional values are absent when unknown; GTXN/s are never stored:
/// the model derives them (model/roofline/transactions.hpp).
struct Ceilings {
    GpuIdentity gpu;
    std::string
        source; ///< where this entry was loaded from (file path, "shipped:<key>", "derived")
    Quantity warp_gips;                        ///< peak warp-instruction issue rate
    std::map<std::string, Quantity> pipe_gips; ///< per pipe: fp32, fp64, fp16, int32, ...
    std::map<std::string, Quantity> gflops;    ///< fp64_fma, fp64_nofma, fp32_fma, ... (GFLOP/s)
    std::map<std::string, Quantity>
        tensor_tflops; ///< dense, per input type: fp16, bf16, tf32, fp8, int8, fp64
    std::optional<Quantity> l1_gbs;
    std::optional<Quantity> shared_gbs;
    std::optional<Quantity> l2_gbs;
    std::optional<Quantity> hbm_gbs;
    std::optional<Quantity> pcie_gbs;
    /// 2:4-sparse tensor peaks per input type, only to check datasheet readings (>= dense).
    std::map<std::string, Quantity> tensor_sparse_tflops;
    /// Further figures that are not roofline ceilings: hbm_read, hbm_write, hbm_copy, hbm_triad,
    /// l2_near, l2_full, shared_stride_<s>, pcie_h2d, pcie_d2h, int32_gips, ...
    std::map<std::string, Quantity> details;
    /// The SM's datapaths (issue 54 item 2; docs/ceilings.md, "Datapaths"): the key names the
    /// instruction classes a path runs, joined by "_or_" (fp32, int32, fp64, fp16, lsu, mufu,
    /// tensor: "fp32_or_int32" is GA10x's shared path), the value its warp-instruction rate in
    /// warp-GIPS with per_sm_per_clock. Empty: the pipe ceilings cap the issue rate instead.
    std::map<std::string, Quantity> datapaths;
    /// SM clocks in MHz under load: sustained (typical), sustained_low and sustained_high (its
    /// spread). Empty: the boost clock stands in (docs/model.md, "SM clock").
    std::map<std::string, Quantity> clocks;
    /// Latency figures in us: launch_floor, the shortest duration a kernel launch takes on the
    /// GPU (docs/model.md, "Latency floor").
    std::map<std::string, Quantity> latency;
    /// Measured files: where and how (driver, runtime, host, tool, timestamp_utc, clock_policy).
    std::map<std::string, std::string> environment;
};

/// Name of a provenance kind as written in YAML and JSON.
[[nodiscard]] inline const char* to_string(Provenance p) {
    switch (p) {
    case Provenance::measured:
        return "measured";
    case Provenance::published:
        return "published";
    case Provenance::spec:
        return "spec";
    case Provenance::derived:
        return "derived";
    }
    return "spec";
}

// Names in the datapaths and clocks blocks (issue 54; docs/ceilings.md, "Datapaths", "Sustained
// clocks"), inline here because model/ reads them and includes no other config/ header.

/// The instruction classes a datapath may run.
inline constexpr std::array<const char*, 7> k_datapath_classes{
    {"fp32", "int32", "fp64", "fp16", "lsu", "mufu", "tensor"}};

/// The classes a datapath key names ("fp32_or_int32" -> fp32, int32); empty when a part is not
/// one of k_datapath_classes or is named twice.
[[nodiscard]] inline std::vector<std::string> datapath_runs(const std::string& key) {
    std::vector<std::string> runs;
    const std::string separator = "_or_";
    std::size_t begin = 0;
    while (true) {
        const std::size_t end = key.find(separator, begin);
        const std::string part = key.substr(begin, end - begin);
        const bool known = std::find(k_datapath_classes.begin(), k_datapath_classes.end(), part) !=
                           k_datapath_classes.end();
        if (!known || std::find(runs.begin(), runs.end(), part) != runs.end()) {
            return {};
        }
        runs.push_back(part);
        if (end == std::string::npos) {
            return runs;
        }
        begin = end + separator.size();
    }
}

/// One clocks entry in MHz, 0 when absent.
[[nodiscard]] inline double clock_entry_mhz(const Ceilings& ceilings, const char* key) {
    const auto it = ceilings.clocks.find(key);
    return it != ceilings.clocks.end() ? it->second.value : 0.0;
}

/// The typical SM clock under load: clocks.sustained, else the boost clock.
[[nodiscard]] inline double sustained_clock_mhz(const Ceilings& ceilings) {
    const double sustained = clock_entry_mhz(ceilings, "sustained");
    return sustained > 0 ? sustained : ceilings.gpu.boost_clock_mhz;
}

} // namespace irf::config
