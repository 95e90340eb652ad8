// SPDX-License-Identifier: Apache-2.0
// identity / complete: the non-measured parts of a measured ceilings file.
#include "calibrate/identity.hpp"

#include <cctype>
#include <ctime>
#include <unistd.h>

#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"

namespace irf::calibrate {
namespace {

std::string format_time(const char* format) {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

std::string host_name() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) {
        return "unknown";
    }
    return buf;
}

} // namespace

std::string utc_date() {
    return format_time("%Y-%m-%d");
}

std::string utc_timestamp() {
    return format_time("%Y-%m-%dT%H:%M:%SZ");
}

std::string slug(const std::string& name) {
    std::string out;
    for (const unsigned char ch : name) {
        if (std::isalnum(ch)) {
            out += static_cast<char>(std::tolower(ch));
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
    }
    while (!out.empty() && out.back() == '-') {
        out.pop_back();
    }
    return out.empty() ? "gpu" : out;
}

config::Ceilings identity(const DeviceInfo& device, const std::vector<std::string>& dirs,
                          const std::string& tool, bool quick) {
    config::Ceilings c;
    auto& g = c.gpu;
    g.name = device.name;
    g.cc = device.cc();
    g.sms = device.sms;
    g.schedulers_per_sm = 4;
    g.boost_clock_mhz = device.max_clock_mhz;
    g.l2_bytes = device.l2_bytes;
    g.memory_bytes = device.memory_bytes;
    std::string base = slug(device.name);
    if (const auto key = config::match_gpu(device.name, g.cc, g.sms, dirs)) {
        const std::string suffix = ".measured";
        base = key->size() > suffix.size() && key->find(suffix) != std::string::npos
                   ? key->substr(0, key->size() - suffix.size())
                   : *key;
        try {
            const auto entry = config::load_shipped(base, dirs);
            g.chip = entry.gpu.chip;
            g.aliases = entry.gpu.aliases;
            g.memory_type = entry.gpu.memory_type;
            g.base_clock_mhz = entry.gpu.base_clock_mhz;
        } catch (const config::CeilingsError&) {
            // The identity from the device alone is enough; the match only adds names.
        }
    }
    g.key = base + ".measured";
    c.environment["driver"] = "CUDA driver API " + device.driver;
    c.environment["runtime"] = "CUDA runtime " + device.runtime;
    c.environment["host"] = host_name();
    c.environment["tool"] = tool;
    c.environment["timestamp_utc"] = utc_timestamp();
    c.environment["clock_policy"] = "default boost (clocks not locked)";
    if (quick) {
        c.environment["note"] = "--quick run: fewer samples and shorter launches";
    }
    c.source = "irf-calibrate";
    return c;
}

std::vector<std::string> complete(config::Ceilings& c, const std::string& date) {
    std::vector<std::string> warnings;
    const double peak = c.gpu.sms * c.gpu.schedulers_per_sm * c.gpu.boost_clock_mhz / 1e3;
    if (c.warp_gips.value > peak * 1.02) {
        // More instructions per second than the schedulers can issue: the count is wrong.
        warnings.push_back("warp_gips " + std::to_string(c.warp_gips.value) +
                           " exceeds the issue peak; kept as details.issue_suspect");
        c.details["issue_suspect"] = c.warp_gips;
        c.warp_gips = config::Quantity();
    }
    for (auto it = c.pipe_gips.begin(); it != c.pipe_gips.end();) {
        if (it->second.value > peak * 1.02) {
            warnings.push_back("pipe_gips." + it->first + " exceeds the issue peak; dropped");
            it = c.pipe_gips.erase(it);
        } else {
            ++it;
        }
    }
    if (c.l2_gbs && c.hbm_gbs && c.l2_gbs->value <= c.hbm_gbs->value) {
        warnings.push_back("L2 measured at or below DRAM; l2_gbs left out (see details.l2_near)");
        c.l2_gbs.reset();
    }
    if (c.warp_gips.value <= 0) {
        auto& q = c.warp_gips;
        q.unit = "warp-GIPS";
        q.provenance = config::Provenance::derived;
        q.per_sm_per_clock = c.gpu.schedulers_per_sm;
        q.clock_mhz = c.gpu.boost_clock_mhz;
        q.value = peak;
        q.source = "irf-calibrate (issue rate not measured)";
        q.method = std::to_string(c.gpu.sms) + " SMs x 4 schedulers x max clock";
        q.date = date;
    }
    config::validate_ceilings(c, "irf-calibrate output");
    return warnings;
}

} // namespace irf::calibrate
