// SPDX-License-Identifier: Apache-2.0
// Hierarchical FLOP roofline (docs/model.md: HRM Eq. 2-7; PROJ Eq. 2).
#include "model/roofline/flop_roofline.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "common/string_printf.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/instruction_roofline.hpp"
#include "model/roofline/kernel_ceilings.hpp"
#include "model/roofline/predication.hpp"

namespace irf::model {

double flop_count(double adds, double muls, double fmas) {
    return adds + muls + 2.0 * fmas;
}

double fma_fraction(double fmas, double adds, double muls) {
    const auto alpha = safe_ratio(fmas, fmas + adds + muls); // Eq. 6
    return alpha ? *alpha : 0.0;
}

double fma_mix_factor(double alpha) {
    return (alpha * 2.0 + (1.0 - alpha)) / 2.0; // Eq. 7
}

std::optional<double> perf_mix(double fma_peak, double add_mul_peak, double fmas, double adds,
                               double muls) {
    const double n = fmas + adds + muls;
    if (!(n > 0)) {
        return std::nullopt;
    }
    return fma_peak * fmas / n + add_mul_peak * (adds + muls) / n; // projection Eq. 2
}

double hmma_gips(double tensor_tflops, double flops_per_instruction) {
    const auto g = safe_ratio(tensor_tflops * 1e3, flops_per_instruction);
    return g ? *g : 0.0;
}

namespace {

struct PrecisionCounters {
    const char* name;
    const char* add;
    const char* mul;
    const char* fma;
};

const std::array<PrecisionCounters, 3> s_precisions{{
    {"fp64", "thread_dadd", "thread_dmul", "thread_dfma"},
    {"fp32", "thread_fadd", "thread_fmul", "thread_ffma"},
    {"fp16", "thread_hadd", "thread_hmul", "thread_hfma"},
}};

const std::array<const char*, 6> s_tensor_types{{"fp16", "bf16", "tf32", "fp8", "fp64", "int8"}};

// A precision's FLOPs: add + mul + 2 x fma from the thread counters, else the total a file
// gives (nvprof's flop_count_sp/dp/hp, imported as flops_<precision>); nullopt without either.
std::optional<double> precision_flops(const Counters& counters, const PrecisionCounters& p) {
    const auto adds = counter(counters, p.add);
    const auto muls = counter(counters, p.mul);
    const auto fmas = counter(counters, p.fma);
    if (adds && muls && fmas) {
        return flop_count(*adds, *muls, *fmas);
    }
    return counter(counters, std::string("flops_") + p.name);
}

// True when a file gave some precision's FLOPs only as a total (an nvprof export): then the
// precisions it did not collect are counted as 0 with a reason, rather than no roofline at all.
bool has_flop_totals(const Counters& counters) {
    const auto first = counters.lower_bound("flops_");
    return first != counters.end() && first->first.rfind("flops_", 0) == 0;
}

const PrecisionCounters* find_precision(const std::string& name) {
    for (const auto& p : s_precisions) {
        if (name == p.name) {
            return &p;
        }
    }
    return nullptr;
}

// Tensor ops of every input type, the input type with the most of them ("" when no tensor
// counter exists), and in `flops` those that are floating point: INT8 ops are not FLOPs (issue
// 40 item 9), though they take tensor-pipe time.
double tensor_ops(const Counters& counters, std::string& top_type, double& flops) {
    double total = 0, top = -1;
    flops = 0;
    for (const char* type : s_tensor_types) {
        if (const auto v = counter(counters, std::string("tensor_ops_") + type)) {
            total += *v;
            flops += std::string(type) == "int8" ? 0.0 : *v;
            if (*v > top) {
                top = *v;
                top_type = type;
            }
        }
    }
    return total;
}

std::optional<double> hmma_ceiling(const Counters& counters, const config::Ceilings& ceilings,
                                   double tensor, const std::string& type,
                                   std::vector<std::string>& missing) {
    const auto peak = ceilings.tensor_tflops.find(type.empty() ? "fp16" : type);
    if (peak == ceilings.tensor_tflops.end() || peak->second.value <= 0) {
        return std::nullopt;
    }
    // Measured FLOPs per tensor instruction when both counters exist; 512 is Volta's HMMA only.
    const auto inst = counter(counters, "inst_tensor");
    auto per_inst = inst && tensor > 0 ? safe_ratio(tensor, *inst) : std::nullopt;
    if (!per_inst && ceilings.gpu.cc == "7.0") {
        per_inst = k_v100_flops_per_hmma;
    }
    if (!per_inst) {
        if (inst && *inst > 0) { // a kernel without tensor instructions needs no such ceiling
            missing.push_back("flops.hmma_gips_ceiling: FLOPs per tensor instruction unknown on "
                              "cc " +
                              ceilings.gpu.cc + " (512 is Volta's HMMA only)");
        }
        return std::nullopt;
    }
    const double gips = hmma_gips(peak->second.value, *per_inst);
    return gips > 0 ? std::optional<double>(gips) : std::nullopt; // never a zero ceiling
}

// Per precision (hierarchical Eq. 2-4 applied to each precision's FLOPs alone): GFLOP/s, AI per
// level with the same transactions as the total, and the ceiling the precision runs at.
void fill_by_precision(const Counters& counters, const config::Ceilings& ceilings, FlopsResult& r) {
    const auto time = counter(counters, "time_ns");
    const auto txn = std::array<std::optional<double>, 3>{
        {l1_transactions(counters), l2_transactions(counters), hbm_transactions(counters)}};
    const auto ai = [](double flops, std::optional<double> t) {
        return t ? safe_ratio(flops, *t * 32.0) : std::nullopt;
    };
    std::vector<std::string> ignored; // predication's own reasons are reported by analyze
    const double predication = model::predication(counters, ignored).value_or(1.0);
    for (const auto& [name, n] : flops_by_precision(counters)) {
        PrecisionFlops p;
        p.flops = n;
        p.gflops = time ? safe_ratio(n, *time).value_or(0.0) : 0.0;
        if (n > 0) {
            p.ai = PerLevel{ai(n, txn[0]), ai(n, txn[1]), ai(n, txn[2])};
        }
        p.ceiling_gflops = precision_ceiling_gflops(counters, ceilings, name, predication);
        r.by_precision[name] = p;
    }
}

} // namespace

std::map<std::string, double> flops_by_precision(const Counters& counters) {
    std::map<std::string, double> out;
    for (const auto& p : s_precisions) {
        if (const auto flops = precision_flops(counters, p)) {
            out[p.name] = *flops;
        }
    }
    for (const char* type : s_tensor_types) {
        if (const auto v = counter(counters, std::string("tensor_ops_") + type)) {
            out[std::string("tensor_") + type] = *v;
        }
    }
    return out;
}

std::optional<FmaCounts> fma_counts(const Counters& counters, const std::string& precision) {
    const PrecisionCounters* p = find_precision(precision);
    if (p == nullptr) {
        return std::nullopt;
    }
    return FmaCounts{counter(counters, p->add), counter(counters, p->mul),
                     counter(counters, p->fma)};
}

std::optional<double> fma_mix_ceiling(const FmaCounts& counts, const config::Ceilings& ceilings,
                                      const std::string& precision) {
    const auto fma_peak = ceilings.gflops.find(precision + "_fma");
    const auto& [adds, muls, fmas] = counts;
    if (fma_peak == ceilings.gflops.end() || fma_peak->second.value <= 0 || !adds || !muls ||
        !fmas) {
        return std::nullopt;
    }
    const auto nofma = ceilings.gflops.find(precision + "_nofma");
    // docs/model.md: HRM section II.A: no-FMA peak = half the FMA peak when not measured.
    const double add_mul_peak = nofma != ceilings.gflops.end() && nofma->second.value > 0
                                    ? nofma->second.value
                                    : fma_peak->second.value / 2.0;
    return perf_mix(fma_peak->second.value, add_mul_peak, *fmas, *adds, *muls);
}

std::optional<double> fma_mix_ceiling(const Counters& counters, const config::Ceilings& ceilings,
                                      const std::string& precision) {
    const auto counts = fma_counts(counters, precision);
    return counts ? fma_mix_ceiling(*counts, ceilings, precision) : std::nullopt;
}

std::optional<double> tensor_pipe_pct(const std::map<std::string, PrecisionFlops>& by_precision) {
    double busy = 0;
    bool counted = false;
    for (const auto& [name, p] : by_precision) {
        if (name.rfind("tensor_", 0) != 0 || !(p.flops > 0)) {
            continue;
        }
        // Each type takes the pipe for its ops / its own peak: the shares add (one pipe).
        const auto share =
            p.ceiling_gflops ? safe_ratio(p.gflops, *p.ceiling_gflops) : std::nullopt;
        if (!share) {
            return std::nullopt;
        }
        busy += *share;
        counted = true;
    }
    return counted ? std::optional<double>(100.0 * busy) : std::nullopt;
}

std::optional<FlopsResult> flop_roofline(const Counters& counters, const config::Ceilings& ceilings,
                                         std::vector<std::string>& missing) {
    FlopsResult r;
    std::array<double*, 3> out{{&r.fp64, &r.fp32, &r.fp16}};
    double top = 0;
    const bool totals = has_flop_totals(counters);
    bool known = false;
    for (std::size_t i = 0; i < s_precisions.size(); ++i) {
        const auto& p = s_precisions[i];
        const auto flops = precision_flops(counters, p);
        if (!flops && !totals) {
            missing.push_back("flops: counters absent: " +
                              absent_counters(counters, {p.add, p.mul, p.fma}));
            return std::nullopt;
        }
        if (!flops) {
            missing.push_back(std::string("flops.") + p.name + ": not collected (counted as 0): " +
                              absent_counters(counters, {p.add, p.mul, p.fma}) + " or flops_" +
                              p.name);
            continue;
        }
        known = true;
        *out[i] = *flops;
        if (*out[i] > top) {
            top = *out[i];
            r.precision = p.name;
        }
    }
    if (!known) {
        return std::nullopt; // totals of no precision: nothing to draw
    }
    std::string tensor_type;
    const double ops = tensor_ops(counters, tensor_type, r.tensor);
    const bool tensor_math = issues_tensor_math(counters);
    if (tensor_type.empty() && tensor_math) {
        missing.push_back("flops.tensor: tensor_ops_* counters absent; tensor-core FLOPs are not "
                          "in gflops (" +
                          std::string(k_tensor_types_hint) + ")");
    }
    const double total = r.fp64 + r.fp32 + r.fp16 + r.tensor;
    const auto time = counter(counters, "time_ns");
    if (const auto g = time ? safe_ratio(total, *time) : std::nullopt) {
        r.gflops = *g; // Eq. 3: FLOPs / run time; FLOPs per ns = GFLOP/s
    } else {
        missing.push_back("flops.gflops: kernel time is 0 ns or absent");
    }
    // Eq. 2 and 4: AI = FLOPs / bytes, bytes = transactions x 32.
    const auto bytes = [](std::optional<double> txn) {
        return txn ? std::optional<double>(*txn * 32.0) : std::nullopt;
    };
    const auto ai = [&](std::optional<double> b) {
        return b && total > 0 ? safe_ratio(total, *b) : std::nullopt;
    };
    r.ai.l1 = ai(bytes(l1_transactions(counters)));
    r.ai.l2 = ai(bytes(l2_transactions(counters)));
    r.ai.hbm = ai(bytes(hbm_transactions(counters)));
    fill_by_precision(counters, ceilings, r);
    r.tensor_pipe_pct = tensor_pipe_pct(r.by_precision);
    if (!r.precision.empty()) {
        r.fma_mix_ceiling_gflops = fma_mix_ceiling(counters, ceilings, r.precision);
    }
    if (tensor_math) {
        r.hmma_gips_ceiling = hmma_ceiling(counters, ceilings, ops, tensor_type, missing);
    }
    note_fp_share_absent(counters, missing);
    return r;
}

double profiled_warps(const KernelRecord& kernel) {
    const LaunchConfig& l = kernel.launch;
    if (!launch_known(l)) {
        return 0;
    }
    const double blocks = double(l.grid[0]) * l.grid[1] * l.grid[2];
    const double threads = double(l.block[0]) * l.block[1] * l.block[2];
    return blocks * std::ceil(threads / 32.0) * double(kernel.profiled_launches);
}

void note_tensor_moves(const Counters& raw, double warps_launched, KernelAnalysis& a) {
    const double moves = tensor_register_moves(raw, warps_launched);
    if (!(moves > 0)) {
        return;
    }
    if (a.flops) {
        a.flops->tensor_register_moves = moves;
    }
    const double hfma = std::min(counter(raw, "thread_hfma").value_or(0.0), 32.0 * moves);
    a.notes.push_back(common::string_printf(
        "tensor: the %.0f tensor-pipe instructions are register moves (nvcc's HFMA2.MMA: %s), "
        "not tensor work; their %.0f HFMA thread instructions are not FP16 FLOPs",
        moves,
        has_tensor_types(raw) ? "every tensor op type measured 0"
        : std::fabs(counter(raw, "thread_hfma").value_or(0.0) - 32.0 * moves) <= 0.32 * moves
            ? "HFMA thread instructions = 32 x tensor instructions"
            : "at most 16 a warp, each with 1 to 32 HFMA thread instructions",
        hfma));
}

std::string flop_pipe(const std::string& precision) {
    if (precision.rfind("tensor_", 0) == 0) {
        return "tensor";
    }
    return precision == "fp64" ? "fp64" : "fma"; // FP32 and FP16 (HFMA2) share the FMA pipe
}

std::optional<double> precision_ceiling_gflops(const Counters& counters,
                                               const config::Ceilings& ceilings,
                                               const std::string& precision, double predication) {
    if (precision.rfind("tensor_", 0) == 0) {
        const auto it = ceilings.tensor_tflops.find(precision.substr(7));
        if (it == ceilings.tensor_tflops.end() || it->second.value <= 0) {
            return std::nullopt;
        }
        return it->second.value * 1e3; // TFLOP/s -> GFLOP/s
    }
    const auto mix = fma_mix_ceiling(counters, ceilings, precision);
    if (!mix || !(*mix > 0)) {
        return std::nullopt;
    }
    // Projection Eq. 3 with the FP pipe's own active share when measured (docs/model.md).
    return perf_ceil(fp_ceiling_share(counters, precision, predication), *mix);
}

} // namespace irf::model
