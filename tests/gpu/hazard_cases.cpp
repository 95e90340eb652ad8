// SPDX-License-Identifier: Apache-2.0
// Loader of tests/gpu/hazards.json.
#include "tests/gpu/hazard_cases.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "tests/gpu/expected_cases.hpp"

namespace irf::test {
namespace {

KernelCheck parse_kernel_check(const nlohmann::json& j) {
    KernelCheck k;
    k.kernel = j.at("kernel").get<std::string>();
    k.launches = j.at("launches").get<int>();
    k.profiled_min = j.value("profiled_min", 0);
    k.region = j.value("region", std::string());
    if (j.contains("profiled_max")) {
        k.profiled_max = j.at("profiled_max").get<int>();
    }
    return k;
}

HazardCase parse_hazard_case(const nlohmann::json& j) {
    HazardCase c;
    c.id = j.at("id").get<std::string>();
    c.app = j.at("app").get<std::string>();
    c.env = j.value("env", std::map<std::string, std::string>{});
    c.signal = j.value("signal", std::string());
    c.after_s = j.value("after_s", 0);
    c.exit_code = j.at("exit").get<int>();
    c.stdout_has = j.at("stdout").get<std::string>();
    c.profile_required = j.at("profile").get<std::string>() == "whole";
    if (j.contains("kernel")) {
        c.kernels.push_back(parse_kernel_check(j));
    }
    for (const auto& also : j.value("also", nlohmann::json::array())) {
        c.kernels.push_back(parse_kernel_check(also));
    }
    return c;
}

std::vector<HazardCase> load_hazard_cases() {
    const std::string path = setting("IRF_GPU_HAZARDS", IRF_GPU_HAZARDS);
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error(path + ": cannot open");
    }
    std::vector<HazardCase> out;
    try {
        // The document outlives the loop: a range-for over a member of the temporary that
        // parse() returns would read freed memory (the temporary dies before the loop runs).
        const nlohmann::json document = nlohmann::json::parse(in);
        for (const auto& j : document.at("cases")) {
            out.push_back(parse_hazard_case(j));
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    if (out.empty()) {
        throw std::runtime_error(path + ": no case in \"cases\"");
    }
    return out;
}

} // namespace

void PrintTo(const HazardCase& c, std::ostream* os) {
    *os << c.id;
}

const std::vector<HazardCase>& hazard_cases() {
    static const std::vector<HazardCase> s_cases = load_hazard_cases();
    return s_cases;
}

std::vector<std::string> hazard_apps() {
    std::vector<std::string> apps;
    for (const HazardCase& c : hazard_cases()) {
        if (std::find(apps.begin(), apps.end(), c.app) == apps.end()) {
            apps.push_back(c.app);
        }
    }
    return apps;
}

std::vector<std::string> hazard_command(const HazardCase& c, const std::string& app_path) {
    if (c.signal.empty()) {
        return {app_path};
    }
    return {"timeout", "--preserve-status", "-s", c.signal, std::to_string(c.after_s), app_path};
}

} // namespace irf::test
