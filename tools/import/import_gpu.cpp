// SPDX-License-Identifier: Apache-2.0
// Choosing the GPU of an imported profile (docs/import.md, "GPU").
#include "tools/import/import_gpu.hpp"

#include <algorithm>
#include <cstring>

#include "config/ceilings.hpp"
#include "config/ceilings_choice.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/foreign_metrics.hpp"
#include "config/gpu_database.hpp"
#include "config/text_list.hpp"
#include "tools/import/import_error.hpp"

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

// ncu's Device column holds the device's index ("0") in every export seen (docs/import.md,
// "GPU"): a bare number names no GPU.
bool is_device_index(const std::string& device) {
    return !device.empty() &&
           std::all_of(device.begin(), device.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The fastest SM clock a launch ran at, when the files measured it.
double fastest_clock_hz(const model::Profile& profile) {
    double hz = 0;
    for (const model::KernelRecord& k : profile.kernels) {
        if (const auto it = k.counters.find("clock_hz"); it != k.counters.end()) {
            hz = std::max(hz, it->second);
        }
    }
    return hz;
}

// Shipped spec entries the files' properties fit: the same cc, the same SM count where the
// files give one, and a boost clock no slower than a measured clock (2% for rounding).
std::vector<std::string> entries_fitting(const std::string& cc, int sms, double clock_hz,
                                         const std::vector<std::string>& dirs) {
    std::vector<std::string> out;
    if (cc.empty()) {
        return out;
    }
    for (const std::string& key : config::list_shipped(dirs)) {
        if (key.find('.') != std::string::npos) {
            continue; // "<key>.measured" stands for the spec entry of its key
        }
        try {
            const config::GpuIdentity id = config::load_shipped(key, dirs).gpu;
            if (id.cc == cc && (sms == 0 || id.sms == sms) &&
                (clock_hz == 0 || id.boost_clock_mhz * 1e6 * 1.02 >= clock_hz)) {
                out.push_back(key);
            }
        } catch (const config::CeilingsError&) {
            // an unreadable entry fits nothing
        }
    }
    return out;
}

// A GPU's name as files spell it, for comparing: case, spaces and a "NVIDIA "/"Tesla " prefix
// left out ("", a bare device index, names nothing).
std::string comparable_name(const ImportedFile& f) {
    std::string name = !f.display_name.empty()     ? f.display_name
                       : is_device_index(f.device) ? std::string()
                                                   : f.device;
    std::string out;
    for (const char c : name) {
        if (c != ' ') {
            out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        }
    }
    for (const char* prefix : {"nvidia", "tesla"}) {
        if (out.rfind(prefix, 0) == 0) {
            out.erase(0, std::strlen(prefix));
        }
    }
    return out;
}

std::string described(const ImportedFile& f) {
    const std::string name = !f.display_name.empty() ? f.display_name : f.device;
    return "'" + name + "'" + (f.cc.empty() ? "" : ", cc " + f.cc) +
           (f.sms > 0 ? ", " + std::to_string(f.sms) + " SMs" : "");
}

// Files of two GPUs joined into one profile would mix their counters under one GPU's ceilings
// (issue 52 item 6): a name, CC or SM count that two files both give and that differs is refused.
void check_one_gpu(const std::vector<ImportedFile>& files) {
    for (std::size_t i = 1; i < files.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            const ImportedFile& a = files[j];
            const ImportedFile& b = files[i];
            const std::string na = comparable_name(a);
            const std::string nb = comparable_name(b);
            if ((!na.empty() && !nb.empty() && na != nb) ||
                (!a.cc.empty() && !b.cc.empty() && a.cc != b.cc) ||
                (a.sms > 0 && b.sms > 0 && a.sms != b.sms)) {
                throw ImportError(b.path, 0, 0,
                                  "recorded on " + described(b) + ", while " + a.path +
                                      " was recorded on " + described(a) +
                                      ": import one GPU's files per profile");
            }
        }
    }
}

} // namespace

GpuChoice choose_gpu(model::Profile& profile, const std::vector<ImportedFile>& files,
                     const std::string& requested, const std::vector<std::string>& dirs) {
    check_one_gpu(files);
    if (!requested.empty()) {
        fill_from(profile.gpu, config::load_named_ceilings(requested, dirs, "--gpu").gpu);
        return {requested, ""};
    }
    std::string device, cc;
    int sms = 0;
    for (const ImportedFile& f : files) {
        const std::string named = !f.display_name.empty()     ? f.display_name
                                  : is_device_index(f.device) ? std::string()
                                                              : f.device;
        device = device.empty() ? named : device;
        cc = cc.empty() ? f.cc : cc;
        sms = sms > 0 ? sms : f.sms;
    }
    if (!device.empty()) {
        if (const auto key = config::match_gpu(device, cc, sms, dirs)) {
            fill_from(profile.gpu, config::load_shipped(*key, dirs).gpu);
            return {*key, ""};
        }
    }
    const std::vector<std::string> fitting =
        device.empty() ? entries_fitting(cc, sms, fastest_clock_hz(profile), dirs)
                       : std::vector<std::string>{};
    if (fitting.size() == 1) {
        fill_from(profile.gpu, config::load_shipped(fitting.front(), dirs).gpu);
        return {fitting.front(), "the files name no GPU; " + fitting.front() +
                                     " is the one shipped entry of cc " + cc +
                                     (sms > 0 ? " with " + std::to_string(sms) + " SMs" : "") +
                                     " (pass --gpu NAME|FILE if that is wrong)"};
    }
    profile.gpu.name = device;
    profile.gpu.cc = cc;
    profile.gpu.chip = config::chip_of_cc(cc);
    profile.gpu.sms = sms;
    profile.gpu.clock_hz = measured_clock_hz(profile);
    const std::string named =
        device.empty() ? "the files name no GPU model" + (cc.empty() ? "" : " (cc " + cc + ")")
                       : "GPU '" + device + "'" + (cc.empty() ? "" : " (cc " + cc + ")") +
                             " is not in the shipped database";
    const std::string missing = config::derivation_lacks({device, profile.gpu.chip, cc, sms, 0, 0});
    if (missing.empty()) {
        return {"",
                named + ": ceilings derived from what the files say (pass --gpu NAME|FILE for "
                        "the right ones)",
                true};
    }
    const std::string family =
        config::join(device.empty() ? fitting : config::family_entries(device, dirs), ", ");
    return {"",
            named + " and the files give no " + missing +
                ": imported without analysis; run again with --gpu NAME|FILE" +
                (family.empty()   ? ""
                 : device.empty() ? " (shipped entries of cc " + cc + ": " + family + ")"
                                  : " (shipped of that family: " + family + ")"),
            false};
}

} // namespace irf::import
