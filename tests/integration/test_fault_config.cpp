// SPDX-License-Identifier: Apache-2.0
// Fault matrix, bad configuration: every IRF_* variable with invalid values. Each gives exactly
// one [irf] line naming the variable and the value, the application's exit status is unchanged,
// and irf disables itself or ignores the setting exactly as docs/configuration.md says.
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "tests/integration/fault_support.hpp"

namespace irf::test {
namespace test_fault_config {
namespace {

/// The "invalid value" column of docs/configuration.md, by variable.
std::map<std::string, std::string> documented_consequences() {
    std::ifstream in(std::string(IRF_SOURCE_DIR) + "/docs/configuration.md");
    // Rows look like "| `IRF_X` | ... | consequence |"; plain checks, no std::regex
    // (check-sources).
    std::map<std::string, std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        const auto name_end = line.find("` |");
        if (line.rfind("| `IRF_", 0) != 0 || name_end == std::string::npos || line.size() < 4 ||
            line.compare(line.size() - 2, 2, " |") != 0) {
            continue;
        }
        const auto last = line.rfind(" | ", line.size() - 3);
        const std::string name = line.substr(3, name_end - 3);
        if (last != std::string::npos && last > name_end &&
            name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string::npos) {
            out[name] = line.substr(last + 3, line.size() - 2 - (last + 3));
        }
    }
    return out;
}

struct BadValue {
    std::string variable;
    std::string value;
};

class FaultConfig : public TempDirTest {
protected:
    /// Runs the harness (exit status 5) with one bad setting on top of a working fake run.
    ProcessResult run_with(const BadValue& bad) {
        std::map<std::string, std::string> env = {
            {"IRF_BACKEND", "fake:" + fake_script("basic.json")},
            {"IRF_OUTPUT", "out"},
            {"IRF_SUMMARY", "none"}};
        env[bad.variable] = bad.value;
        std::filesystem::create_directories(run_dir());
        return run_fault_harness(env, {"return:5"}, run_dir().string());
    }

    /// The application's working directory (the outputs land here).
    std::filesystem::path run_dir() const { return m_tmp / "run"; }

    /// Checks one bad value against the documented consequence.
    void check(const BadValue& bad, const std::string& consequence) {
        SCOPED_TRACE(bad.variable + "=" + bad.value);
        std::filesystem::remove_all(run_dir());
        const ProcessResult r = run_with(bad);
        EXPECT_EQ(r.exit_code, 5) << r.err;
        EXPECT_EQ(r.signal, 0) << r.err;
        const std::string named = bad.variable + "=" + bad.value + ": ";
        EXPECT_EQ(irf_lines_with(r.err, named).size(), 1u) << r.err;
        std::vector<std::string> json;
        for (const std::string& f : files_in(run_dir())) {
            if (f.size() > 5 && f.substr(f.size() - 5) == ".json") {
                json.push_back(f);
            }
        }
        if (consequence == "irf disabled") {
            EXPECT_EQ(irf_lines(r.err).size(), 1u) << r.err;
            EXPECT_NE(irf_lines_with(r.err, named).at(0).find("; irf disabled"), std::string::npos);
            EXPECT_TRUE(json.empty()) << "irf should have disabled itself";
            return;
        }
        ASSERT_EQ(consequence, "ignored, default used");
        ASSERT_EQ(json.size(), 1u) << r.err;
        const nlohmann::json p = read_json(run_dir() / json[0]);
        EXPECT_EQ(p["coverage"]["launches"], 14) << "the rest of the configuration still holds";
        EXPECT_EQ(p["config"][bad.variable], default_effective(bad.variable));
        EXPECT_NE(p["warnings"].dump().find(bad.variable + "="), std::string::npos);
    }

    /// The effective value of `variable` in a run without bad settings.
    std::string default_effective(const std::string& variable) {
        if (m_defaults.is_null()) {
            TempDir dir;
            const ProcessResult r = run_fault_harness(fake_run_env(dir.path()));
            EXPECT_EQ(r.exit_code, 0) << r.err;
            m_defaults = read_json(dir / "out.json")["config"];
        }
        if (variable == "IRF_OUTPUT" || variable == "IRF_SUMMARY" || variable == "IRF_BACKEND") {
            const std::map<std::string, std::string> defaults = {{"IRF_OUTPUT", "irf-%a-%h-%p"},
                                                                 {"IRF_SUMMARY", "both"}};
            return defaults.at(variable); // these are set in every run here
        }
        return m_defaults[variable].get<std::string>();
    }

    nlohmann::json m_defaults;
};

TEST_F(FaultConfig, EveryVariableWithInvalidValuesBehavesAsDocumented) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    const std::string malformed = (m_tmp / "malformed.yaml").string();
    const std::string wrong_schema = (m_tmp / "schema.yaml").string();
    write_file(malformed, "gpu: [unterminated\n  - {\n");
    write_file(wrong_schema, "hello: 1\n");
    const std::vector<BadValue> bad_values = {
        {"IRF_OUTPUT", "out-%x"},
        {"IRF_OUTPUT", "out-%"},
        {"IRF_OUTPUT", "%q"},
        {"IRF_OUTPUT", "%q{UNTERMINATED"},
        {"IRF_SUMMARY", "loud"},
        {"IRF_KERNELS", "("},
        {"IRF_KERNELS", "%s%n%s[a-"},
        {"IRF_EXCLUDE", "*abc"},
        {"IRF_EXCLUDE", "a{2,1}"},
        {"IRF_NVTX_INCLUDE", "a//b/"},
        {"IRF_NVTX_EXCLUDE", "[start-end"},
        {"IRF_CAPTURE_RANGE", "nvtx"},
        {"IRF_CAPTURE_RANGE", "cudaprofilerapi"},
        {"IRF_LAUNCH_SKIP", "-1"},
        {"IRF_LAUNCH_SKIP", "ten"},
        {"IRF_LAUNCH_SKIP", "99999999999999999999999"},
        {"IRF_LAUNCH_COUNT", "-5"},
        {"IRF_LAUNCH_COUNT", "many"},
        {"IRF_SAMPLES", "-1"},
        {"IRF_SAMPLES", "1001"},
        {"IRF_SAMPLES", "2.5"},
        {"IRF_REPLAY", "user"},
        {"IRF_REPLAY", "KERNEL"},
        {"IRF_TIMING", "sampled:0:0"},
        {"IRF_TIMING", "SAMPLED"},
        {"IRF_GRAPH_TIMING", "graphs:0"},
        {"IRF_GRAPH_TIMING", "node"},
        {"IRF_FAST_INTERCEPT", "fast"},
        {"IRF_FAST_INTERCEPT", "2"},
        {"IRF_CEILINGS", "/nonexistent/ceilings.yaml"},
        {"IRF_CEILINGS", malformed},
        {"IRF_CEILINGS", wrong_schema},
        {"IRF_TARGETS", "h100,"},
        {"IRF_TARGETS", "nosuchgpu"},
        {"IRF_TARGETS", "/nonexistent/target.yaml"},
        {"IRF_GPUS_DIR", "/nonexistent/gpus"},
        {"IRF_GPUS_DIR", "::"},
        {"IRF_CALLSTACK", "-1"},
        {"IRF_CALLSTACK", "65"},
        {"IRF_LOG", "verbose"},
        {"IRF_LOG", "%n%n%n"},
        {"IRF_DISABLE", "maybe"},
        {"IRF_DISABLE", "2"},
        {"IRF_BACKEND", "nvml"},
        {"IRF_BACKEND", "fake:"},
        {"IRF_METRICS", "everything"},
        {"IRF_METRICS", "pipe_mix,"},
        {"IRF_TENSOR_TYPES", "on"},
        {"IRF_TENSOR_TYPES", "AUTO"},
    };
    const std::map<std::string, std::string> documented = documented_consequences();
    ASSERT_FALSE(documented.empty()) << "no rows read from the docs/configuration.md table";
    std::set<std::string> covered;
    for (const BadValue& bad : bad_values) {
        ASSERT_EQ(documented.count(bad.variable), 1u) << bad.variable << " not in the docs";
        check(bad, documented.at(bad.variable));
        covered.insert(bad.variable);
    }
    for (const auto& entry : documented) {
        EXPECT_EQ(covered.count(entry.first), 1u) << entry.first << " has no bad-value row";
    }
}

TEST_F(FaultConfig, MalformedFakeScriptsDisableIrfWithOneLineNamingTheFile) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    for (const std::string script : {"not_json.json", "bad_grid.json", "missing.json"}) {
        SCOPED_TRACE(script);
        const ProcessResult r = run_with({"IRF_BACKEND", "fake:" + fake_script(script)});
        EXPECT_EQ(r.exit_code, 5) << r.err;
        ASSERT_EQ(irf_lines(r.err).size(), 1u) << r.err;
        EXPECT_NE(irf_lines(r.err)[0].find(fake_script(script)), std::string::npos) << r.err;
        EXPECT_TRUE(files_in(run_dir()).empty());
    }
}

TEST_F(FaultConfig, EveryVariableBadAtOnceStillRunsTheApplication) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    std::map<std::string, std::string> env;
    // An empty table would make this test pass vacuously (no variable set, no line expected).
    ASSERT_FALSE(documented_consequences().empty()) << "no rows read from docs/configuration.md";
    for (const auto& entry : documented_consequences()) {
        // Invalid for every variable: an unterminated NVTX start/end range and regex class, an
        // unknown placeholder, no number, and a trailing comma (an empty target).
        env[entry.first] = "[%n%s%x(,";
    }
    const ProcessResult r = run_fault_harness(env, {"return:3"}, m_tmp.path().string());
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_EQ(r.signal, 0);
    // One line per variable, each quoting the value literally (never used as a format).
    EXPECT_EQ(irf_lines_with(r.err, "=[%n%s%x(,: ").size(), documented_consequences().size())
        << r.err;
    EXPECT_TRUE(files_in(m_tmp.path()).empty());
}

TEST_F(FaultConfig, FileSettingsAreCheckedAtLoadBeforeTheGpu) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    // The CUPTI backend: without a GPU it stops at "CUPTI is unavailable"; these settings were
    // then never reported (and on a GPU only when the job ended).
    const std::string broken = (m_tmp / "broken.yaml").string();
    write_file(broken, "schema: irf.ceilings/v1\ngpu: [\n");
    const ProcessResult r = run_fault_harness({{"IRF_CEILINGS", broken},
                                               {"IRF_TARGETS", "h100-sxm5,no-such-gpu"},
                                               {"IRF_OUTPUT", "no-such-dir/out"}},
                                              {"return:4"}, m_tmp.path().string());
    EXPECT_EQ(r.exit_code, 4) << r.err;
    const std::vector<std::string> lines = irf_lines(r.err);
    const auto position = [&](const std::string& needle) {
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (lines[i].find(needle) != std::string::npos) {
                return i;
            }
        }
        return lines.size();
    };
    const std::size_t ceilings = position("IRF_CEILINGS=" + broken + ": ");
    const std::size_t targets = position("IRF_TARGETS=h100-sxm5,no-such-gpu: ");
    const std::size_t output = position("IRF_OUTPUT=no-such-dir/out: directory ");
    ASSERT_LT(ceilings, lines.size()) << r.err;
    ASSERT_LT(targets, lines.size()) << r.err;
    ASSERT_LT(output, lines.size()) << r.err;
    EXPECT_NE(lines[targets].find("no-such-gpu: unknown target"), std::string::npos);
    // Each named once, all before whatever the backend says about the GPU.
    EXPECT_EQ(irf_lines_with(r.err, "IRF_TARGETS=").size(), 1u) << r.err;
    // Without a driver the CUPTI backend says "CUPTI is unavailable"; the order is only seen
    // with that line there (an absent line would make any order pass).
    if (std::filesystem::exists("/dev/nvidiactl")) {
        GTEST_SKIP() << "a GPU driver is present: CUPTI may start, so there is no line to order";
    }
    const std::size_t gpu = position("CUPTI is unavailable");
    ASSERT_LT(gpu, lines.size()) << r.err;
    EXPECT_LT(std::max({ceilings, targets, output}), gpu);
}

} // namespace
} // namespace test_fault_config
} // namespace irf::test
