// SPDX-License-Identifier: Apache-2.0
#include "tools/import/elapsed_cycles.hpp"

#include "tools/import/values.hpp"

namespace irf::import {
namespace {

// The unit of "{sm,smsp,gpc}__cycles_elapsed.{avg,max}" ("sm"), else "".
std::string cycles_unit(const std::string& name, const char* suffix) {
    for (const char* unit : {"sm", "smsp", "gpc"}) {
        const std::string prefix = std::string(unit) + "__cycles_elapsed.";
        if (name.rfind(prefix, 0) == 0 &&
            name.compare(prefix.size(), std::string::npos, suffix) == 0) {
            return unit;
        }
    }
    return {};
}

} // namespace

// Elapsed cycles and their rate, kept aside: with no duration in the file they give one
// (close_launch). The cycles are no canonical counter: true when the row was a count of them. A
// rate row also goes on to clock_hz (false).
bool elapsed_cycles_row(LaunchRead& launch, const std::string& name, const std::string& unit,
                        const std::string& value) {
    std::string of = cycles_unit(name, "avg.per_second");
    if (!of.empty()) {
        const CellValue v = parse_cell(value);
        const auto factor = unit_factor(config::ForeignKind::frequency, unit);
        if (v.status == CellValue::Status::number && v.value > 0 && factor) {
            launch.cycle_rates[of] = v.value * *factor;
        }
        return false;
    }
    for (const char* stat : {"avg", "max"}) {
        of = cycles_unit(name, stat);
        if (of.empty()) {
            continue;
        }
        const CellValue v = parse_cell(value);
        if (v.status == CellValue::Status::number && v.value > 0) {
            launch.elapsed_cycles[name] = v.value;
        }
        return true;
    }
    return false;
}

// A duration from elapsed cycles over their rate, and the names it came from: each unit's
// average (ncu's roofline scripts read it), then its maximum, with the same unit's rate ("sm",
// "smsp", "gpc" in that order), else SM and SMSP cycles with the other's rate (one SM clock).
std::optional<std::pair<double, std::string>> time_from_cycles(const LaunchRead& launch) {
    const auto pair =
        [&](const std::string& unit,
            const std::string& rate_unit) -> std::optional<std::pair<double, std::string>> {
        const auto rate = launch.cycle_rates.find(rate_unit);
        if (rate == launch.cycle_rates.end()) {
            return std::nullopt;
        }
        for (const char* stat : {"avg", "max"}) {
            const std::string name = unit + "__cycles_elapsed." + stat;
            if (const auto c = launch.elapsed_cycles.find(name); c != launch.elapsed_cycles.end()) {
                return std::pair{c->second / rate->second * 1e9,
                                 name + " / " + rate_unit + "__cycles_elapsed.avg.per_second"};
            }
        }
        return std::nullopt;
    };
    for (const auto& [unit, rate] :
         {std::pair{"sm", "sm"}, std::pair{"smsp", "smsp"}, std::pair{"gpc", "gpc"},
          std::pair{"sm", "smsp"}, std::pair{"smsp", "sm"}}) {
        if (auto time = pair(unit, rate)) {
            return time;
        }
    }
    return std::nullopt;
}

} // namespace irf::import
