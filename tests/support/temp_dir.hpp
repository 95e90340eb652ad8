// SPDX-License-Identifier: Apache-2.0
// Test helper: a fresh temporary directory removed when the fixture ends.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace irf::test {

/// Owns a unique directory under $TMPDIR (or /tmp); removed recursively on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    /// The directory's path.
    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
    /// path() / name.
    [[nodiscard]] std::filesystem::path operator/(const std::string& name) const {
        return m_path / name;
    }

private:
    std::filesystem::path m_path;
};

/// gtest fixture giving each test its own TempDir as `m_tmp`.
class TempDirTest : public ::testing::Test {
protected:
    TempDir m_tmp;
};

/// Writes `text` to `path`, creating parent directories; throws on failure.
void write_file(const std::filesystem::path& path, const std::string& text);
/// Reads a whole file; throws std::runtime_error naming the path when it cannot.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

} // namespace irf::test
