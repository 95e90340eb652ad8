// SPDX-License-Identifier: Apache-2.0
// Loads tests/gpu/expected.json into ExpectedCase values.
#include "tests/gpu/expected_cases.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace irf::test {
namespace {

ExpectedCase parse_expected_case(const nlohmann::json& j) {
    ExpectedCase c;
    c.id = j.at("id").get<std::string>();
    c.app = j.at("app").get<std::string>();
    c.args = j.at("args").get<std::vector<std::string>>();
    c.env = j.value("env", std::map<std::string, std::string>{});
    c.kernel = j.at("kernel").get<std::string>();
    c.launches = j.at("launches").get<int>();
    for (const auto& [name, r] : j.at("instructions").items()) {
        c.ranges[name] = CountRange{r.at("min").get<double>(), r.at("max").get<double>()};
    }
    c.counts = j.at("counts").get<std::map<std::string, double>>();
    c.tolerance = j.at("tolerance").get<double>();
    c.verdict = j.at("verdict");
    if (j.contains("approx")) {
        for (const auto& [name, a] : j.at("approx").items()) {
            c.approx[name] =
                ApproxCount{a.at("value").get<double>(), a.at("min_ratio").get<double>(),
                            a.at("max_ratio").get<double>()};
        }
    }
    if (j.contains("min_cc")) {
        int major = 0;
        int minor = 0;
        const auto text = j.at("min_cc").get<std::string>();
        if (std::sscanf(text.c_str(), "%d.%d", &major, &minor) != 2) {
            throw std::runtime_error("min_cc '" + text + "' is not MAJOR.MINOR");
        }
        c.min_cc = std::make_pair(major, minor);
    }
    return c;
}

std::vector<ExpectedCase> load_expected_cases(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error(path + ": cannot open");
    }
    std::vector<ExpectedCase> cases;
    try {
        const auto doc = nlohmann::json::parse(in);
        for (const auto& j : doc.at("cases")) {
            cases.push_back(parse_expected_case(j));
        }
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    return cases;
}

} // namespace

void PrintTo(const ExpectedCase& c, std::ostream* os) {
    *os << c.id;
}

std::string setting(const char* name, const char* compiled) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? value : compiled;
}

const std::vector<ExpectedCase>& expected_cases() {
    static const std::vector<ExpectedCase> s_cases =
        load_expected_cases(setting("IRF_GPU_EXPECTED", IRF_GPU_EXPECTED));
    return s_cases;
}

std::vector<std::string> expected_apps() {
    std::vector<std::string> apps;
    for (const auto& c : expected_cases()) {
        if (std::find(apps.begin(), apps.end(), c.app) == apps.end()) {
            apps.push_back(c.app);
        }
    }
    return apps;
}

std::string app_path(const std::string& app) {
    return setting("IRF_GPU_APPS_DIR", IRF_GPU_APPS_DIR) + "/" + app;
}

std::string libirf_path() {
    return setting("IRF_LIBIRF_PATH", IRF_LIBIRF_PATH);
}

std::map<std::string, std::string> irf_environment(std::map<std::string, std::string> env,
                                                   const std::string& stem) {
    env["CUDA_INJECTION64_PATH"] = libirf_path();
    env["NVTX_INJECTION64_PATH"] = libirf_path(); // as `irf run` sets it: NVTX regions
    env["IRF_OUTPUT"] = stem;
    env["IRF_SUMMARY"] = "file";
    env["IRF_LOG"] = setting("IRF_GPU_LOG", "info");
    return env;
}

void keep_run_outputs(const char* dir_variable, const std::string& id, const std::string& stem,
                      int exit_code, int signal, const std::string& out, const std::string& err) {
    namespace fs = std::filesystem;
    const std::string dir = setting(dir_variable, "");
    if (dir.empty()) {
        return;
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::ofstream(fs::path(dir) / (id + ".log"))
        << "exit " << exit_code << " signal " << signal << "\n--- stdout\n"
        << out << "--- stderr\n"
        << err;
    for (const char* ext : {".json", ".txt"}) {
        fs::copy_file(stem + ext, fs::path(dir) / (id + ext), fs::copy_options::overwrite_existing,
                      ec);
    }
}

std::string gtest_name(const std::string& id) {
    std::string out = id;
    std::replace_if(
        out.begin(), out.end(),
        [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) == 0; }, '_');
    return out;
}

} // namespace irf::test
