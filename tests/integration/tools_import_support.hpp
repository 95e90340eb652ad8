// SPDX-License-Identifier: Apache-2.0
// What the irf-report import tests share: running the program on tests/data/import files and
// reading the profile it writes, or checking that it refuses in one line (docs/import.md).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {

/// Where the import fixtures are.
inline const std::string s_import_data = IRF_TEST_DATA_DIR "/import/";

/// Runs irf-report with `args`; `expect_error` when it must fail.
inline ProcessResult run_report(const std::vector<std::string>& args, bool expect_error = false) {
    std::vector<std::string> argv{IRF_REPORT_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    RunOptions options;
    options.expect_irf_error = expect_error;
    return run_process(argv, options);
}

/// True when one of kernel `k`'s notes holds `needle`.
inline bool has_note(const nlohmann::json& k, const std::string& needle) {
    const nlohmann::json& notes = k.at("notes");
    return std::any_of(notes.begin(), notes.end(), [&](const nlohmann::json& n) {
        return n.get<std::string>().find(needle) != std::string::npos;
    });
}

/// A temporary folder and the import runs of one test.
class ImportTest : public TempDirTest {
protected:
    /// Imports the fixtures `files` (with `extra` options) and returns the profile written.
    nlohmann::json import(const std::vector<std::string>& files,
                          const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args{"import"};
        for (const std::string& f : files) {
            args.push_back(s_import_data + f);
        }
        args.insert(args.end(), {"-o", out().string(), "--targets", "none"});
        args.insert(args.end(), extra.begin(), extra.end());
        const ProcessResult r = run_report(args);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return nlohmann::json::parse(read_file(out()));
    }

    /// Runs an import of `paths` that must fail: one error line holding `needle`, exit 2, no
    /// output file.
    void expect_refused(const std::vector<std::string>& paths, const std::string& needle) {
        std::vector<std::string> args{"import"};
        args.insert(args.end(), paths.begin(), paths.end());
        args.insert(args.end(), {"-o", out().string()});
        const ProcessResult r = run_report(args, true);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(r.err.rfind("irf-report: error: ", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(out())) << "half-written output";
    }

    /// The profile an import writes.
    std::filesystem::path out() const { return m_tmp / "imported.json"; }
};

} // namespace irf::test
