// SPDX-License-Identifier: Apache-2.0
// Datapaths, clocks and latency blocks of a ceilings file (config/datapaths.hpp).
#include "config/datapaths.hpp"

#include <algorithm>

#include "config/ceilings_rules.hpp"

namespace irf::config {

namespace {

// A sustained clock far above the boost figure is a typo (GHz or a memory clock), not a part
// that runs there: GeForce cards run up to about 1.25 x their boost figure under load
// (docs/ceilings.md, "Sustained clocks").
constexpr double s_max_sustained_over_boost = 1.5;

void check_datapaths(const Ceilings& c,
                     const std::function<void(const std::string&, const std::string&)>& fail) {
    const double peak = c.gpu.sms * c.gpu.schedulers_per_sm * c.gpu.boost_clock_mhz / 1e3;
    for (const auto& [key, q] : c.datapaths) {
        const std::string path = "ceilings.datapaths." + key;
        if (datapath_runs(key).empty()) {
            fail(path, "not a datapath name (classes of fp32, int32, fp64, fp16, lsu, mufu, "
                       "tensor joined by _or_, each once)");
        }
        if (q.value > peak * 1.02) {
            fail(path + ".value", rules::format_double(q.value) +
                                      " warp-GIPS exceeds the issue peak " +
                                      rules::format_double(peak));
        }
    }
}

void check_clocks(const Ceilings& c,
                  const std::function<void(const std::string&, const std::string&)>& fail) {
    if (c.clocks.empty()) {
        return;
    }
    const double sustained = clock_entry_mhz(c, "sustained");
    if (!(sustained > 0)) {
        fail("ceilings.clocks.sustained", "missing (the spread needs the typical clock)");
    }
    const double most = c.gpu.boost_clock_mhz * s_max_sustained_over_boost;
    if (sustained < 100 || sustained > most) {
        fail("ceilings.clocks.sustained.value",
             rules::format_double(sustained) + " MHz must be between 100 and " +
                 rules::format_double(most) + " MHz (1.5 x the boost clock)");
    }
    const double low = clock_entry_mhz(c, "sustained_low");
    const double high = clock_entry_mhz(c, "sustained_high");
    if (low > 0 && low > sustained) {
        fail("ceilings.clocks.sustained_low.value", "is above the sustained clock");
    }
    if (high > 0 && (high < sustained || high > most)) {
        fail("ceilings.clocks.sustained_high.value",
             "must lie between the sustained clock and 1.5 x the boost clock");
    }
}

} // namespace

const std::vector<std::string>& clock_keys() {
    static const std::vector<std::string> keys = {"sustained", "sustained_low", "sustained_high"};
    return keys;
}

void validate_generations(const Ceilings& ceilings,
                          const std::function<void(const std::string&, const std::string&)>& fail) {
    check_datapaths(ceilings, fail);
    check_clocks(ceilings, fail);
}

} // namespace irf::config
