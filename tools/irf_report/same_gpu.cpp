// SPDX-License-Identifier: Apache-2.0
// Whether two profiles ran on one GPU model (tools/irf_report/same_gpu.hpp).
#include "tools/irf_report/same_gpu.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "config/gpu_database.hpp"

namespace irf::report {
namespace {

// A model name, or "" for none: ncu's Device column is the device's index ("0").
std::string model_name(const std::string& name) {
    const bool index = std::all_of(name.begin(), name.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    return index ? std::string() : name;
}

std::optional<std::string> shipped_key(const model::GpuInfo& g,
                                       const std::vector<std::string>& dirs) {
    auto key = config::match_gpu(model_name(g.name), g.cc, g.sms, dirs);
    if (key) {
        key = key->substr(0, key->find('.')); // "h100-sxm5.measured" is the h100-sxm5
    }
    return key;
}

bool differ(const std::string& a, const std::string& b) {
    return !a.empty() && !b.empty() && a != b;
}

} // namespace

GpuRelation gpu_relation(const model::GpuInfo& a, const model::GpuInfo& b,
                         const std::vector<std::string>& dirs) {
    if (differ(a.chip, b.chip) || differ(a.cc, b.cc) ||
        (a.sms > 0 && b.sms > 0 && a.sms != b.sms)) {
        return GpuRelation::different;
    }
    const std::string na = model_name(a.name);
    const std::string nb = model_name(b.name);
    if (!na.empty() && na == nb) {
        return GpuRelation::same;
    }
    if (na.empty() || nb.empty()) {
        return GpuRelation::same_chip;
    }
    // Two spellings of one model ("NVIDIA H100 80GB HBM3" from the driver, "NVIDIA H100 SXM5
    // 80GB" from the shipped entry an import matched) match one entry.
    const auto ka = shipped_key(a, dirs);
    const auto kb = shipped_key(b, dirs);
    return ka && kb && *ka == *kb ? GpuRelation::same : GpuRelation::different;
}

} // namespace irf::report
