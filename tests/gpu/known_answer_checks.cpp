// SPDX-License-Identifier: Apache-2.0
// The checks of a known-answer case on a profile's kernel record (known_answer_checks.hpp).
#include "tests/gpu/known_answer_checks.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace irf::test {

using nlohmann::json;

namespace {

/// Checks a per-launch count against its expectation; 0 must be exactly 0.
void expect_count(const std::string& name, double got, double want, double tolerance) {
    if (want == 0) {
        EXPECT_EQ(got, 0.0) << name << " per launch";
        return;
    }
    EXPECT_NEAR(got / want, 1.0, tolerance)
        << name << " per launch: got " << got << ", want " << want;
}

} // namespace

std::vector<json> matching_kernels(const json& profile, const std::string& needle) {
    std::vector<json> out;
    for (const auto& k : profile.value("kernels", json::array())) {
        if (k.value("name", std::string()).find(needle) != std::string::npos) {
            out.push_back(k);
        }
    }
    return out;
}

bool counters_not_permitted(const json& profile) {
    for (const auto& w : profile.value("warnings", json::array())) {
        const auto text = w.is_string() ? w.get<std::string>() : w.dump();
        for (const char* key : {"NVGPUCTRPERM", "INSUFFICIENT_PRIVILEGES", "permission"}) {
            if (text.find(key) != std::string::npos) {
                return true;
            }
        }
    }
    return false;
}

void check_counts(const ExpectedCase& c, const json& kernel) {
    const double profiled = kernel.at("profiled_launches").get<double>();
    const json& counters = kernel.value("counters", json::object());
    for (const auto& [name, want] : c.counts) {
        if (!counters.contains(name)) {
            ADD_FAILURE() << "counter " << name << " missing from the profile";
            continue;
        }
        expect_count(name, counters.at(name).get<double>() / profiled, want, c.tolerance);
    }
    for (const auto& [name, a] : c.approx) {
        if (!counters.contains(name)) {
            ADD_FAILURE() << "counter " << name << " missing from the profile";
            continue;
        }
        const double ratio = counters.at(name).get<double>() / profiled / a.value;
        EXPECT_GE(ratio, a.min_ratio) << name << " per launch vs " << a.value;
        EXPECT_LE(ratio, a.max_ratio) << name << " per launch vs " << a.value;
    }
    // The Instruction Roofline's main inputs: within the source's bounds (expected_gen.py).
    for (const auto& [name, r] : c.ranges) {
        if (!counters.contains(name)) {
            ADD_FAILURE() << "counter " << name << " missing from the profile";
            continue;
        }
        const double per_launch = counters.at(name).get<double>() / profiled;
        EXPECT_GE(per_launch, r.min) << name << " per launch";
        EXPECT_LE(per_launch, r.max) << name << " per launch";
    }
    if (counters.contains("inst_warp") && counters.contains("inst_thread")) {
        EXPECT_LE(counters.at("inst_thread").get<double>(),
                  32 * counters.at("inst_warp").get<double>())
            << "more thread instructions than 32 lanes of the warp instructions";
    }
}

void check_verdict(const ExpectedCase& c, const json& kernel) {
    ASSERT_TRUE(kernel.contains("analysis")) << "kernel has no analysis";
    const json& a = kernel.at("analysis");
    const json& v = c.verdict;
    const json walls = a.value("walls", json::object());
    if (v.contains("global_pattern") || v.contains("global_intensity")) {
        ASSERT_TRUE(walls.contains("global"))
            << "no global wall; missing: " << a.value("missing", json::array()).dump();
        const json& g = walls.at("global");
        if (v.contains("global_pattern")) {
            EXPECT_EQ(g.at("pattern").get<std::string>(),
                      v.at("global_pattern").get<std::string>());
        }
        if (v.contains("global_intensity")) {
            EXPECT_NEAR(g.at("intensity").get<double>() / v.at("global_intensity").get<double>(),
                        1.0, 0.02)
                << "global wall intensity " << g.at("intensity");
        }
    }
    if (v.contains("shared_conflict_ways")) {
        ASSERT_TRUE(walls.contains("shared")) << "no shared wall";
        const double ways = walls.at("shared").at("conflict_ways").get<double>();
        EXPECT_NEAR(ways / v.at("shared_conflict_ways").get<double>(), 1.0, 0.03)
            << "conflict ways " << ways;
    }
    if (v.contains("predication")) {
        ASSERT_TRUE(a.contains("predication")) << "no predication";
        const double p = a.at("predication").get<double>();
        EXPECT_GE(p, v.at("predication").at(0).get<double>());
        EXPECT_LE(p, v.at("predication").at(1).get<double>());
    }
    if (v.contains("bound")) {
        ASSERT_TRUE(a.contains("irm")) << "no Instruction Roofline result";
        const auto bound = a.at("irm").at("bound").get<std::string>();
        const auto allowed = v.at("bound").get<std::vector<std::string>>();
        EXPECT_NE(std::find(allowed.begin(), allowed.end(), bound), allowed.end())
            << "bound " << bound << ", want one of " << v.at("bound").dump();
    }
    if (v.contains("mix_integer_min")) { // the case runs with IRF_METRICS=pipe_mix
        ASSERT_TRUE(a.value("mix", json::object()).contains("integer"))
            << "no analysis.mix.integer; env of the case: " << json(c.env).dump();
        EXPECT_GE(a.at("mix").at("integer").get<double>(), v.at("mix_integer_min").get<double>());
    }
}

bool cc_at_least(const json& profile, const std::pair<int, int>& min_cc) {
    int major = 0;
    int minor = 0;
    const auto cc = profile.value("gpu", json::object()).value("cc", std::string());
    if (std::sscanf(cc.c_str(), "%d.%d", &major, &minor) != 2) {
        return true; // unknown: check the counts and let a mismatch show
    }
    return std::make_pair(major, minor) >= min_cc;
}

} // namespace irf::test
