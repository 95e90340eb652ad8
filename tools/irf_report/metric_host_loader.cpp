// SPDX-License-Identifier: Apache-2.0
// Loads libirf_metrics_host.so (tools/irf_report/metric_host_loader.hpp).
#include "tools/irf_report/metric_host_loader.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

namespace cupti = intercept::cupti;
namespace fs = std::filesystem;

/// Where the module may be: beside the binary (the build tree), then <prefix>/<libdir> of an
/// installed irf-report (<prefix>/bin/irf-report).
std::vector<fs::path> module_candidates() {
    const std::string bin = exe_dir();
    if (bin.empty()) {
        return {cupti::k_metric_host_module}; // the loader's own search path
    }
    return {fs::path(bin) / cupti::k_metric_host_module,
            fs::path(bin).parent_path() / IRF_INSTALL_LIBDIR / cupti::k_metric_host_module};
}

using ApiFunction = const cupti::MetricHostApi* (*)();

const cupti::MetricHostApi* load(std::string& why) {
    for (const fs::path& path : module_candidates()) {
        std::error_code ec;
        if (path.has_parent_path() && !fs::exists(path, ec)) {
            why += (why.empty() ? "" : "; ") + path.string() + ": not found";
            continue;
        }
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) {
            const char* error = dlerror();
            why += (why.empty() ? "" : "; ") + std::string(error != nullptr ? error : "?");
            continue;
        }
        const auto get = reinterpret_cast<ApiFunction>(dlsym(handle, cupti::k_metric_host_symbol));
        const cupti::MetricHostApi* api = get != nullptr ? get() : nullptr;
        if (api != nullptr && api->version == cupti::k_metric_host_api_version) {
            return api; // stays loaded for the process
        }
        why += (why.empty() ? "" : "; ") + path.string() + ": not irf's metric module " +
               "(symbol or version mismatch)";
        dlclose(handle);
    }
    return nullptr;
}

} // namespace

const cupti::MetricHostApi& metric_host_api() {
    static std::once_flag s_once;
    static const cupti::MetricHostApi* s_api = nullptr;
    static std::string s_why;
    std::call_once(s_once, [] { s_api = load(s_why); });
    if (s_api == nullptr) {
        throw InputError("cannot load CUPTI's host API through " +
                         std::string(cupti::k_metric_host_module) + " (" + s_why +
                         "): install irf with its lib directory, and the CUDA toolkit's CUPTI");
    }
    return *s_api;
}

} // namespace irf::report
