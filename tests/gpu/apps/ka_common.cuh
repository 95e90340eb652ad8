// SPDX-License-Identifier: Apache-2.0
// Shared host helpers of the known-answer apps: device probe, error checks, variant selection.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

#include <cuda_runtime.h>

namespace ka {

/// Exit code of an app that found no usable CUDA device (the autotools "skip" convention).
constexpr int k_exit_no_device = 77;
/// Exit code of an app whose results were wrong on the host check.
constexpr int k_exit_wrong = 1;
/// Exit code of a bad command line.
constexpr int k_exit_usage = 2;
/// Launches of each kernel: 3 (so that irf can sample a launch other than the first, whose
/// duration includes lazy module loading), or KA_LAUNCHES (1 to 1000) where set: a sample by
/// launches (IRF_REPLAY=launches) needs one launch a pass after the first (scripts'
/// gpu-validate.sh --replay). Anything else in KA_LAUNCHES is refused with one line.
inline int launches_from_env() {
    const char* text = std::getenv("KA_LAUNCHES");
    if (text == nullptr || *text == '\0') {
        return 3;
    }
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > 1000) {
        std::printf("KA_LAUNCHES=%s: not a whole number from 1 to 1000\n", text);
        std::exit(k_exit_usage);
    }
    return static_cast<int>(value);
}

/// Each kernel is launched this often (launches_from_env()).
inline const int k_launches = launches_from_env();

/// Prints `<app>: no CUDA device: <reason>` and exits 77 when no device can be used.
inline void require_device(const char* app) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        std::printf("%s: no CUDA device: %s\n", app, cudaGetErrorString(err));
        std::exit(k_exit_no_device);
    }
    if (count == 0) {
        std::printf("%s: no CUDA device: cudaGetDeviceCount returned 0\n", app);
        std::exit(k_exit_no_device);
    }
}

/// Aborts with the failing call and CUDA's message; a known-answer app never continues after a
/// CUDA error.
inline void check(cudaError_t err, const char* what, const char* app) {
    if (err != cudaSuccess) {
        std::printf("%s: FAIL: %s: %s\n", app, what, cudaGetErrorString(err));
        std::exit(k_exit_wrong);
    }
}

/// True when `variant` should run: no selection given, or the selection names it exactly.
inline bool selected(const char* selection, const char* variant) {
    return selection == nullptr || std::strcmp(selection, variant) == 0;
}

/// Reports one variant's host check in a fixed form and returns whether it passed.
inline bool report(const char* app, const char* variant, bool ok, const std::string& detail) {
    std::printf("%s: %s %s%s%s\n", app, variant, ok ? "ok" : "FAIL", detail.empty() ? "" : ": ",
                detail.c_str());
    return ok;
}

/// Reports a wrong element of a variant's output ("thread 3 got 1.0, want 2.0") as a failure;
/// returns false.
template <typename Index, typename Got, typename Want>
bool report_wrong(const char* app, const char* variant, const char* unit, Index index, Got got,
                  Want want) {
    return report(app, variant, false,
                  std::string(unit) + " " + std::to_string(index) + " got " + std::to_string(got) +
                      ", want " + std::to_string(want));
}

/// Prints the usage line listing the variants and returns the usage exit code.
/// True when the command line is wrong: more than one argument, or a variant not in `variants`
/// (no argument selects every variant).
inline bool bad_selection(int argc, const char* selection,
                          std::initializer_list<const char*> variants) {
    if (argc > 2) {
        return true;
    }
    if (selection == nullptr) {
        return false;
    }
    for (const char* v : variants) {
        if (std::strcmp(selection, v) == 0) {
            return false;
        }
    }
    return true;
}

inline int usage(const char* app, const char* variants) {
    std::printf("usage: %s [VARIANT]\nvariants (default: all): %s\n", app, variants);
    return k_exit_usage;
}

} // namespace ka
