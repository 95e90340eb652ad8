// SPDX-License-Identifier: Apache-2.0
// Runs the selected benchmarks and turns their measurements into measured ceilings values.
#include <cstdio>
#include <stdexcept>

#include "calibrate/bench_context.hpp"
#include "calibrate/device_info.hpp"

namespace irf::calibrate {

config::Quantity Context::quantity(const Measurement& m, double scale, const std::string& unit,
                                   const std::string& method) const {
    config::Quantity q;
    q.value = m.best / scale;
    q.unit = unit;
    q.provenance = config::Provenance::measured;
    q.source = settings.tool;
    q.method = method;
    q.date = settings.date;
    q.driver = device.driver;
    q.clock_mhz = m.clock_mhz;
    if (m.clock_mhz > 0) {
        // value = SMs x rate x clock / unit scale, solved for rate (re-projectable to a clock).
        const double unit_scale = unit == "TFLOP/s" || unit == "TOPS" ? 1e6 : 1e3;
        q.per_sm_per_clock = q.value * unit_scale / (device.sms * m.clock_mhz);
    }
    config::Stats s;
    s.n = static_cast<int>(m.rates.size());
    s.best = m.best / scale;
    s.median = m.median / scale;
    s.worst = m.worst / scale;
    s.spread_pct = m.spread_pct;
    q.stats = s;
    return q;
}

void Context::report(const std::string& name, const config::Quantity& q) const {
    char line[256];
    std::snprintf(line, sizeof line,
                  "[irf-calibrate] %-16s %12.2f %-9s (best of %d, spread %.1f%%%s, %.0f MHz)\n",
                  name.c_str(), q.value, q.unit.c_str(), q.stats ? q.stats->n : 0,
                  q.stats ? q.stats->spread_pct : 0.0,
                  q.stats && q.stats->spread_pct > 3.0 ? " UNSTABLE" : "", q.clock_mhz);
    log << line << std::flush;
}

std::vector<std::string> run_benchmarks(const DeviceInfo& device,
                                        const std::vector<std::string>& names,
                                        const RunSettings& settings, config::Ceilings& out,
                                        std::ostream& log) {
    HarnessOptions options;
    options.samples = settings.samples;
    options.target_ms = settings.target_ms;
    Harness harness(options);
    Context ctx{device, settings, harness, out, log};
    std::vector<std::string> failures;
    for (const auto& name : names) {
        std::string group;
        for (const auto& spec : benchmark_specs()) {
            if (spec.name == name) {
                group = spec.group;
            }
        }
        try {
            if (group == "compute") {
                run_compute(ctx, name);
            } else if (group == "tensor") {
                run_tensor(ctx, name);
            } else {
                run_memory(ctx, name);
            }
        } catch (const std::exception& e) {
            failures.push_back(name + ": " + e.what());
            log << "[irf-calibrate] " << name << ": skipped: " << e.what() << "\n" << std::flush;
        }
    }
    return failures;
}

} // namespace irf::calibrate
