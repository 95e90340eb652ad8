// SPDX-License-Identifier: Apache-2.0
// Interval widening beyond Eq. 9 (docs/model.md, "Projection", items 2 and 10 of issue 40).
#include "model/projection/projection_bounds.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>

#include "common/nearest_name.hpp"
#include "model/projection/projection.hpp"
#include "model/projection/resource_times.hpp"
#include "model/roofline/flop_roofline.hpp"

namespace irf::model {

namespace {

constexpr double s_spread_for_low_confidence = 1.25;

// Name fragments of each tensor input type, in the order they are tried (bf16 before fp16,
// because "f16" is in both).
const std::array<std::pair<const char*, std::array<const char*, 3>>, 6> s_type_words{{
    {"fp8", {"fp8", "e4m3", "e5m2"}},
    {"int8", {"int8", "imma", "s8s8"}},
    {"tf32", {"tf32", "tf32", "tf32"}},
    {"bf16", {"bf16", "bfloat16", "bf16"}},
    {"fp16", {"f16", "half", "hmma"}},
    {"fp64", {"fp64", "dmma", "double"}},
}};

double tensor_peak(const config::Ceilings& c, const std::string& type) {
    const auto it = c.tensor_tflops.find(type);
    return it != c.tensor_tflops.end() ? it->second.value : 0.0;
}

bool both_have(const config::Ceilings& s, const config::Ceilings& t, const std::string& type) {
    return tensor_peak(s, type) > 0 && tensor_peak(t, type) > 0;
}

// The ceiling key of a binding resource; "" for flops (several keys) or an unknown resource.
std::string ceiling_key(const std::string& resource) {
    if (resource == "issue") {
        return "warp_gips";
    }
    return memory_level(resource) ? resource + "_gbs" : "";
}

} // namespace

std::string named_tensor_type(const std::string& kernel_name) {
    const std::string name = common::lowercase(kernel_name);
    for (const auto& [candidate, words] : s_type_words) {
        const bool named = std::any_of(words.begin(), words.end(), [&name](const char* w) {
            return name.find(w) != std::string::npos;
        });
        if (named) {
            return candidate;
        }
    }
    return "";
}

std::string likely_tensor_type(const std::string& kernel_name, const config::Ceilings& source,
                               const config::Ceilings& target) {
    std::string type = named_tensor_type(kernel_name);
    type = type.empty() ? "bf16" : type;
    if (both_have(source, target, type)) {
        return type;
    }
    return both_have(source, target, "fp16") ? "fp16" : "";
}

void bracket_unmeasured_tensor(const KernelRecord& kernel, const config::Ceilings& source,
                               const config::Ceilings& target, double total_ns, Projection& p) {
    const std::string type = likely_tensor_type(kernel.name, source, target);
    if (type.empty()) {
        p.notes.push_back("tensor: no tensor peak of a likely type on both GPUs to bracket with");
        return;
    }
    // If the tensor pipe binds on both GPUs, the time scales with the inverse of its peak,
    // whatever the FLOPs per instruction (the kernel's FLOPs are the same on both).
    const double tensor_bound = total_ns * tensor_peak(source, type) / tensor_peak(target, type);
    p.time_low_ns = std::min(p.time_low_ns, tensor_bound);
    p.time_high_ns = std::max(p.time_high_ns, tensor_bound);
    p.time_point_ns = interval_mean_ns(p.time_low_ns, p.time_high_ns);
    p.speedup_point = p.time_point_ns > 0 ? total_ns / p.time_point_ns : 0.0;
    const std::string spelled = named_tensor_type(kernel.name);
    const char* why = spelled == type   ? "the type its name spells"
                      : spelled.empty() ? "assumed: its name spells no type"
                                        : "assumed: the type its name spells has no peak on both";
    char buf[360];
    std::snprintf(buf, sizeof buf,
                  "tensor: FLOPs not counted (%s); the interval holds the %s tensor peak ratio "
                  "%.3g (tensor-bound time %.4g ns; %s), the point is its mean",
                  k_tensor_types_hint, type.c_str(),
                  tensor_peak(target, type) / tensor_peak(source, type), tensor_bound, why);
    p.notes.push_back(buf);
}

namespace {

// The target's value of a spread ceiling key (before any clock scaling), or null.
const config::Quantity* target_value(const CeilingPair& pair, const std::string& key) {
    if (key == "warp_gips") {
        return &pair.target.warp_gips;
    }
    const auto& level = key == "l1_gbs"   ? pair.target.l1_gbs
                        : key == "l2_gbs" ? pair.target.l2_gbs
                                          : pair.target.hbm_gbs;
    return level && level->value > 0 ? &*level : nullptr;
}

// Issue 54: a resource that does not bind at its chosen figure may bind at its lowest one (an
// HBM-bound H100 kernel whose issue time binds on the H200 at 4800 GB/s, but not at its
// latency-bound 2756): the interval holds the point with that resource binding instead.
void widen_by_other_spreads(const CeilingPair& pair, Projection& p) {
    const auto bound = p.resource_ns_target.find(p.bound_target);
    if (bound == p.resource_ns_target.end() || !(bound->second > 0)) {
        return;
    }
    for (const auto& [resource, ns] : p.resource_ns_target) {
        const std::string key = ceiling_key(resource);
        const auto range = pair.target_spread.find(key);
        const config::Quantity* value = key.empty() ? nullptr : target_value(pair, key);
        if (resource == p.bound_target || value == nullptr || range == pair.target_spread.end() ||
            !(range->second.first > 0)) {
            continue;
        }
        const double slowest = ns * value->value / range->second.first;
        if (!(slowest > bound->second)) {
            continue;
        }
        const double ratio = slowest / bound->second;
        p.time_high_ns = std::max(p.time_high_ns, p.time_point_ns * ratio);
        if (ratio > s_spread_for_low_confidence) {
            p.confidence = "low";
            char buf[220];
            std::snprintf(buf, sizeof buf,
                          "%s: at the target's lowest figure (%.6g) %s would bind instead of %s: "
                          "the interval holds x%.2f",
                          key.c_str(), range->second.first, resource.c_str(),
                          p.bound_target.c_str(), ratio);
            p.notes.push_back(buf);
        }
    }
}

} // namespace

void widen_by_spread(const CeilingPair& pair, Projection& p) {
    widen_by_other_spreads(pair, p);
    const std::string key = ceiling_key(p.bound_target);
    const auto range = pair.target_spread.find(key);
    const auto used = p.resource_ns_target.find(p.bound_target);
    if (key.empty() || range == pair.target_spread.end() || used == p.resource_ns_target.end() ||
        !(range->second.first > 0)) {
        return;
    }
    // The target's value in use, at the clock of the pair (before any clock scaling).
    const config::Quantity* value = target_value(pair, key);
    if (value == nullptr || !(value->value > 0)) {
        return;
    }
    const double high = value->value / range->second.first;
    const double low = value->value / range->second.second;
    p.time_low_ns = std::min(p.time_low_ns, p.time_point_ns * low);
    p.time_high_ns = std::max(p.time_high_ns, p.time_point_ns * high);
    if (high / low > s_spread_for_low_confidence) {
        p.confidence = "low";
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "%s: the target's figures span %.6g-%.6g (provenance spread x%.2f): the "
                      "interval holds the point at each",
                      key.c_str(), range->second.first, range->second.second, high / low);
        p.notes.push_back(buf);
    }
}

} // namespace irf::model
