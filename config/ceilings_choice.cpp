// SPDX-License-Identifier: Apache-2.0
// Choosing the source ceilings of an analysis.
#include "config/ceilings_choice.hpp"

#include <algorithm>
#include <cctype>
#include <exception>

#include "config/gpu_database.hpp"

namespace irf::config {
namespace {

bool same_chip(const std::string& a, const std::string& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

/// A note when explicitly requested ceilings describe another chip than the profiled GPU's:
/// every roofline, verdict and projection is then off by the difference (docs/ceilings.md).
void note_chip_mismatch(const Ceilings& ceilings, const GpuProperties& gpu,
                        std::vector<std::string>& notes) {
    if (ceilings.gpu.chip.empty() || gpu.chip.empty() || same_chip(ceilings.gpu.chip, gpu.chip)) {
        return;
    }
    const std::string name = ceilings.gpu.key.empty() ? ceilings.gpu.name : ceilings.gpu.key;
    notes.push_back("ceilings " + name + " are for a " + ceilings.gpu.chip +
                    ", the profiled GPU is " + (gpu.name.empty() ? "a" : gpu.name + ", a") + " " +
                    gpu.chip + ": rooflines, verdicts and projections are off");
}

} // namespace

std::string derivation_lacks(const GpuProperties& gpu) {
    if (gpu.cc.empty() && gpu.sms <= 0) {
        return "compute capability or SM count";
    }
    return gpu.cc.empty() ? "compute capability" : gpu.sms <= 0 ? "SM count" : "";
}

CeilingsChoice choose_ceilings(const std::string& requested, const std::string& what,
                               const GpuProperties& gpu, const std::vector<std::string>& dirs) {
    CeilingsChoice choice;
    if (!requested.empty()) {
        choice.ceilings = load_named_ceilings(requested, dirs, what);
        note_chip_mismatch(*choice.ceilings, gpu, choice.notes);
        return choice;
    }
    if (!derivation_lacks(gpu).empty()) {
        choice.notes.emplace_back("GPU properties unknown (no SM count or compute capability): "
                                  "no ceilings to choose");
        return choice;
    }
    try {
        if (const auto key = match_gpu(gpu.name, gpu.cc, gpu.sms, dirs)) {
            choice.ceilings = load_shipped(*key, dirs);
            return choice;
        }
    } catch (const std::exception& e) {
        choice.notes.push_back(std::string("shipped ceilings unusable: ") + e.what());
    }
    choice.notes.push_back("no shipped ceilings for " +
                           (gpu.name.empty() ? std::string("an unnamed GPU") : gpu.name) + " (cc " +
                           gpu.cc + ", " + std::to_string(gpu.sms) +
                           " SMs): derived from device properties (run irf-calibrate)");
    choice.ceilings =
        derive_ceilings(gpu.name, gpu.chip, gpu.cc, gpu.sms, gpu.clock_mhz, gpu.l2_bytes);
    return choice;
}

} // namespace irf::config
