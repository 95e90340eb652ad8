// SPDX-License-Identifier: Apache-2.0
// Reading canonical counters where any of them may be absent.
#include "model/roofline/counters.hpp"

#include <algorithm>
#include <cmath>

namespace irf::model {

std::optional<double> counter(const Counters& counters, std::string_view name) {
    const auto it = counters.find(name);
    if (it == counters.end() || !std::isfinite(it->second) || it->second < 0) {
        return std::nullopt;
    }
    return it->second;
}

std::optional<double> counter_sum(const Counters& counters,
                                  std::initializer_list<const char*> names) {
    double sum = 0;
    for (const char* name : names) {
        const auto value = counter(counters, name);
        if (!value) {
            return std::nullopt;
        }
        sum += *value;
    }
    return sum;
}

double collected_sum(const Counters& counters, std::initializer_list<const char*> names) {
    double sum = 0;
    for (const char* name : names) {
        sum += counter(counters, name).value_or(0.0);
    }
    return sum;
}

std::string absent_counters(const Counters& counters, std::initializer_list<const char*> names) {
    std::string out;
    for (const char* name : names) {
        if (!counter(counters, name)) {
            out += out.empty() ? "" : ", ";
            out += name;
        }
    }
    return out;
}

std::optional<double> safe_ratio(double a, double b) {
    if (!std::isfinite(a) || !std::isfinite(b) || b <= 0) {
        return std::nullopt;
    }
    const double r = a / b;
    return std::isfinite(r) ? std::optional<double>(r) : std::nullopt;
}

bool has_tensor_types(const Counters& counters) {
    const auto first = counters.lower_bound("tensor_ops_");
    return first != counters.end() && first->first.rfind("tensor_ops_", 0) == 0;
}

double tensor_register_moves(const Counters& counters, double warps_launched) {
    const auto inst = counter(counters, "inst_tensor");
    if (!inst || !(*inst > 0)) {
        return 0;
    }
    bool measured = false, math = false;
    for (auto it = counters.lower_bound("tensor_ops_");
         it != counters.end() && it->first.rfind("tensor_ops_", 0) == 0; ++it) {
        measured = true;
        math = math || it->second > 0;
    }
    if (measured) {
        return math ? 0 : *inst;
    }
    const auto hfma = counter(counters, "thread_hfma");
    if (!hfma) {
        return 0;
    }
    if (std::fabs(*hfma - 32.0 * *inst) <= 0.01 * 32.0 * *inst) {
        return *inst;
    }
    const bool few = warps_launched > 0 && *inst <= k_moves_per_warp * warps_launched;
    return few && *hfma >= *inst && *hfma <= 32.0 * *inst ? *inst : 0;
}

std::optional<Counters> without_tensor_moves(const Counters& counters, double warps_launched) {
    const double moves = tensor_register_moves(counters, warps_launched);
    if (!(moves > 0)) {
        return std::nullopt;
    }
    Counters out = counters;
    out["inst_tensor"] = 0;
    if (const auto hfma = out.find("thread_hfma"); hfma != out.end()) {
        hfma->second = std::max(0.0, hfma->second - 32.0 * moves);
    }
    return out;
}

bool issues_tensor_math(const Counters& counters) {
    const auto inst = counter(counters, "inst_tensor");
    if (!inst || !(*inst > 0) || tensor_register_moves(counters) > 0) {
        return false;
    }
    bool measured = false;
    for (auto it = counters.lower_bound("tensor_ops_");
         it != counters.end() && it->first.rfind("tensor_ops_", 0) == 0; ++it) {
        measured = true;
        if (it->second > 0) {
            return true;
        }
    }
    return !measured; // not measured: it may
}

} // namespace irf::model
