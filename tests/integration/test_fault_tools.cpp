// SPDX-License-Identifier: Apache-2.0
// Fault matrix, input to the tools: truncated, corrupted, hostile and huge JSON and YAML given to
// irf-report (analyze, merge, compare, csv, ceilings) and irf-plot: one clear line naming the
// file, exit status 2, no crash, no hang, nothing half-written.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_fault_tools {
namespace {

namespace fs = std::filesystem;

/// A hostile input file: name and content.
struct Hostile {
    std::string name;
    std::string text;
};

std::vector<Hostile> hostile_json() {
    const std::string good =
        read_file(fs::path(IRF_TEST_DATA_DIR) / "golden" / "tools_profile_before.json");
    nlohmann::json wrong_types = nlohmann::json::parse(good);
    wrong_types["kernels"] = "not a list";
    nlohmann::json negative = nlohmann::json::parse(good);
    negative["coverage"]["launches"] = -1;
    nlohmann::json wrong_kernel = nlohmann::json::parse(good);
    wrong_kernel["kernels"][0]["launch"]["grid"] = nlohmann::json::array({1, "x", nullptr});
    nlohmann::json other_schema = nlohmann::json::parse(good);
    other_schema["schema"] = "irf.profile/v999";
    return {
        {"empty.json", ""},
        {"truncated.json", good.substr(0, good.size() / 2)},
        {"garbage.json", std::string("\x00\xff\xfe{not json", 13)},
        {"deep_array.json", std::string(200000, '[')},
        {"deep_object.json",
         [] {
             std::string s;
             for (int i = 0; i < 100000; ++i) {
                 s += "{\"a\":";
             }
             return s;
         }()},
        {"array.json", "[1, 2, 3]"},
        {"wrong_types.json", wrong_types.dump()},
        {"negative.json", negative.dump()},
        {"wrong_kernel.json", wrong_kernel.dump()},
        {"other_schema.json", other_schema.dump()},
        {"bad_utf8.json", "{\"schema\": \"irf.profile/v1\", \"app\": \"\xc3\x28\"}"},
    };
}

std::vector<Hostile> hostile_yaml() {
    std::string laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i < 12; ++i) {
        const std::string p = "*a" + std::to_string(i - 1);
        laughs += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + p + ", " + p +
                  ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + ", " + p + "]\n";
    }
    return {
        {"empty.yaml", ""},
        {"unterminated.yaml", "schema: irf.ceilings/v1\ngpu: {name: [\n"},
        {"deep.yaml", std::string(100000, '[')},
        {"laughs.yaml", laughs},
        {"tabs.yaml", "schema: irf.ceilings/v1\n\tgpu: x\n"},
        {"scalar.yaml", "42\n"},
        {"wrong_types.yaml", "schema: irf.ceilings/v1\ngpu: {name: x, sms: -3, clock_mhz: abc}\n"},
        {"garbage.yaml", std::string("\x00\xff\xfe\x01", 4)},
    };
}

class FaultTools : public TempDirTest {
protected:
    /// Runs a tool; checks exit 2, no crash, no hang, and a message naming `input` (and giving
    /// `reason`, when not empty).
    static void expect_refused(const std::vector<std::string>& argv, const fs::path& input,
                               const std::string& reason = "") {
        SCOPED_TRACE(argv[1] + " " + input.filename().string());
        RunOptions o;
        o.timeout_s = 60;
        o.expect_irf_error = true;
        const ProcessResult r = run_process(argv, o);
        EXPECT_FALSE(r.timed_out);
        EXPECT_EQ(r.signal, 0) << r.err;
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(input.filename().string()), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << r.err;
    }

    fs::path write_input(const Hostile& h) {
        write_file(m_tmp / h.name, h.text);
        return m_tmp / h.name;
    }
};

TEST_F(FaultTools, AnalyzeRefusesHostileProfiles) {
    for (const Hostile& h : hostile_json()) {
        expect_refused({IRF_REPORT_BIN, "analyze", write_input(h).string()}, h.name);
    }
}

TEST_F(FaultTools, MergeRefusesHostileProfilesAndWritesNothing) {
    const fs::path good = fs::path(IRF_TEST_DATA_DIR) / "golden" / "tools_profile_before.json";
    for (const Hostile& h : hostile_json()) {
        const fs::path out = m_tmp / "merged.json";
        expect_refused(
            {IRF_REPORT_BIN, "merge", good.string(), write_input(h).string(), "-o", out.string()},
            h.name);
        EXPECT_FALSE(fs::exists(out)) << h.name;
    }
    for (const auto& entry : fs::directory_iterator(m_tmp.path())) {
        EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
    }
}

TEST_F(FaultTools, CompareAndCsvRefuseHostileProfiles) {
    const fs::path good = fs::path(IRF_TEST_DATA_DIR) / "golden" / "tools_profile_before.json";
    // Both subcommands are part of irf-report (README, docs/tools.md): no detection, so a
    // missing or renamed one fails here instead of skipping.
    for (const std::string command : {"compare", "csv"}) {
        for (const Hostile& h : hostile_json()) {
            const fs::path input = write_input(h);
            std::vector<std::string> argv = {IRF_REPORT_BIN, command};
            if (command == "compare") {
                argv.push_back(good.string());
            }
            argv.push_back(input.string());
            expect_refused(argv, input);
        }
    }
}

TEST_F(FaultTools, ShowRefusesHostileProfiles) {
    for (const Hostile& h : hostile_json()) {
        expect_refused({IRF_REPORT_BIN, "show", write_input(h).string(), "transpose"}, h.name);
    }
}

TEST_F(FaultTools, CeilingsRefusesHostileYaml) {
    for (const Hostile& h : hostile_yaml()) {
        expect_refused({IRF_REPORT_BIN, "ceilings", write_input(h).string()}, h.name);
    }
}

TEST_F(FaultTools, MissingFilesAndDirectoriesAreRefused) {
    const fs::path missing = m_tmp / "missing.json";
    expect_refused({IRF_REPORT_BIN, "analyze", missing.string()}, missing);
    fs::create_directories(m_tmp / "dir.json");
    expect_refused({IRF_REPORT_BIN, "analyze", (m_tmp / "dir.json").string()}, m_tmp / "dir.json");
    fs::create_directories(m_tmp / "dir.yaml");
    expect_refused({IRF_REPORT_BIN, "ceilings", (m_tmp / "dir.yaml").string()}, m_tmp / "dir.yaml");
}

TEST_F(FaultTools, HugeFilesAreRefusedWithinTheLimit) {
    // Sparse files just over the loaders' limits (profiles 1 GiB, ceilings 4 MiB): refused
    // with a message, without parsing them.
    const fs::path profile = m_tmp / "huge.json";
    const fs::path yaml = m_tmp / "huge.yaml";
    {
        std::ofstream(profile).close();
        std::ofstream(yaml).close();
    }
    fs::resize_file(profile, (std::uintmax_t{1} << 30) + 1);
    fs::resize_file(yaml, (std::uintmax_t{4} << 20) + 1);
    // The reason is the size limit, not some later parse error.
    expect_refused({IRF_REPORT_BIN, "analyze", profile.string()}, profile, "larger than 1 GiB");
    expect_refused({IRF_REPORT_BIN, "ceilings", yaml.string()}, yaml, "larger than 4 MiB");
}

// A number too large for a double makes nlohmann throw out_of_range (406) from parse();
// load_profile maps every json::exception to FormatError, so this is bad input (exit 2).
TEST_F(FaultTools, NumberOverflowIsBadInputNotAnInternalError) {
    const Hostile h = {"overflow.json", "{\"schema\": \"irf.profile/v1\", \"pid\": 1e999999}"};
    expect_refused({IRF_REPORT_BIN, "analyze", write_input(h).string()}, h.name);
}

TEST_F(FaultTools, PlotRefusesHostileProfiles) {
    if (!fs::exists(IRF_PLOT_BIN)) {
        GTEST_SKIP() << IRF_PLOT_BIN << " not built";
    }
    for (const Hostile& h : hostile_json()) {
        if (h.name == "negative.json" || h.name == "wrong_kernel.json") {
            // Fields irf-plot does not read (coverage, launch grid): the C++ loaders get these.
            continue;
        }
        expect_refused({IRF_PLOT_BIN, write_input(h).string(), "-o", (m_tmp / "plots").string()},
                       h.name);
    }
    // A device and a file over irf-report's 1 GiB limit: refused without reading them.
    expect_refused({IRF_PLOT_BIN, "/dev/zero", "-o", (m_tmp / "plots").string()}, "/dev/zero");
    const fs::path huge = m_tmp / "huge.json";
    std::ofstream(huge).close();
    fs::resize_file(huge, (std::uintmax_t{1} << 30) + 1);
    expect_refused({IRF_PLOT_BIN, huge.string(), "-o", (m_tmp / "plots").string()}, huge);
}

} // namespace
} // namespace test_fault_tools
} // namespace irf::test
