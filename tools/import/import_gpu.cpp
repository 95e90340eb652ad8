// SPDX-License-Identifier: Apache-2.0
// Choosing the GPU of an imported profile (docs/import.md, "GPU").
#include "tools/import/import_gpu.hpp"

#include "config/ceilings.hpp"
#include "config/ceilings_choice.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/foreign_metrics.hpp"
#include "config/gpu_database.hpp"
#include "config/text_list.hpp"

namespace irf::import {
namespace {

void fill_from(model::GpuInfo& gpu, const config::GpuIdentity& id) {
    gpu.name = id.name;
    gpu.chip = id.chip;
    gpu.cc = id.cc;
    gpu.sms = id.sms;
    gpu.clock_hz = id.boost_clock_mhz * 1e6;
    gpu.l2_bytes = id.l2_bytes;
    gpu.memory_bytes = id.memory_bytes;
}

// The mean SM clock the launches ran at, when the files measured it (derived ceilings use it).
double measured_clock_hz(const model::Profile& profile) {
    for (const model::KernelRecord& k : profile.kernels) {
        if (const auto it = k.counters.find("clock_hz"); it != k.counters.end()) {
            return it->second;
        }
    }
    return 0;
}

} // namespace

GpuChoice choose_gpu(model::Profile& profile, const std::vector<ImportedFile>& files,
                     const std::string& requested, const std::vector<std::string>& dirs) {
    if (!requested.empty()) {
        fill_from(profile.gpu, config::load_named_ceilings(requested, dirs, "--gpu").gpu);
        return {requested, ""};
    }
    std::string device, cc;
    int sms = 0;
    for (const ImportedFile& f : files) {
        device = device.empty() ? f.device : device;
        cc = cc.empty() ? f.cc : cc;
        sms = sms > 0 ? sms : f.sms;
    }
    if (!device.empty()) {
        if (const auto key = config::match_gpu(device, cc, sms, dirs)) {
            fill_from(profile.gpu, config::load_shipped(*key, dirs).gpu);
            return {*key, ""};
        }
    }
    profile.gpu.name = device;
    profile.gpu.cc = cc;
    profile.gpu.chip = config::chip_of_cc(cc);
    profile.gpu.sms = sms;
    profile.gpu.clock_hz = measured_clock_hz(profile);
    const std::string named = device.empty() ? "the files name no GPU"
                                             : "GPU '" + device + "'" +
                                                   (cc.empty() ? "" : " (cc " + cc + ")") +
                                                   " is not in the shipped database";
    const std::string missing = config::derivation_lacks({device, profile.gpu.chip, cc, sms, 0, 0});
    if (missing.empty()) {
        return {"",
                named + ": ceilings derived from what the files say (pass --gpu NAME|FILE for "
                        "the right ones)",
                true};
    }
    const std::string family = config::join(config::family_entries(device, dirs), ", ");
    return {"",
            named + " and the files give no " + missing +
                ": imported without analysis; run again with --gpu NAME|FILE" +
                (family.empty() ? "" : " (shipped of that family: " + family + ")"),
            false};
}

} // namespace irf::import
