// SPDX-License-Identifier: Apache-2.0
// JSON reader and writer for irf.profile/v1 (docs/output-schema.md), analysis keys included.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/profile/profile.hpp"

namespace irf::model {

/// A profile document that does not follow irf.profile/v1. The message is one line naming the
/// JSON path and what is wrong, e.g. "kernels[3].launches: expected a number".
class FormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The JSON form of a profile (schema irf.profile/v1). Absent optional values are omitted and
/// non-finite numbers are never written.
[[nodiscard]] nlohmann::json profile_to_json(const Profile& profile);

/// Kernel `i` of `profile` as profile_to_json writes it, `labels` being kernel_labels of its
/// kernels (display_name).
[[nodiscard]] nlohmann::json kernel_entry(const Profile& profile, std::size_t i,
                                          const std::vector<std::string>& labels);

/// Parses a profile, with or without `analysis`; throws FormatError on any other schema or a
/// value of the wrong type.
[[nodiscard]] Profile profile_from_json(const nlohmann::json& json);

/// How much JSON a profile may hold, counted while parsing so that a hostile file is refused
/// before it takes gigabytes (50 million elements in 98 MB ran irf-report out of memory and
/// aborted; issue #39 item 8). The limit follows the file's size: irf writes at least 14 bytes a
/// value (pretty JSON; docs/performance.md, "Tools on 100,000 kernels"), a dense bomb 2. What is
/// held is the header, one kernel's document at a time and the kernels' records, so each kernel
/// also counts for its record (about 1 kB whatever its text).
struct JsonLimits {
    std::size_t max_values = std::size_t{1}
                             << 23;     ///< values any file may hold, containers included
    int max_depth = 64;                 ///< nesting
    std::size_t bytes_per_value = 8;    ///< one more value allowed per this many bytes
    std::size_t values_per_kernel = 64; ///< what each element of `kernels` counts extra
};

/// Parses a profile's text one kernel at a time, as load_profile does after reading the file
/// (`limits` scale with text.size()). Throws FormatError, or nlohmann's exceptions on invalid
/// JSON (load_profile turns those into one FormatError line naming the file). `threads` > 1
/// parses a large profile's kernels on that many threads: the same profile, and where anything
/// is wrong the one-thread read runs to report it, so errors are the same too.
[[nodiscard]] Profile profile_from_text(const std::string& text, const JsonLimits& limits = {},
                                        bool lean = false, unsigned threads = 1);

/// Reads and parses a profile file (bounded read, `limits`), one kernel at a time; FormatError
/// messages start with the path. `lean`: each kernel without its `counters` and `analysis`
/// (lexed, not checked), for a command that needs those of a few kernels only (load_kernels).
/// `threads`: as profile_from_text.
[[nodiscard]] Profile load_profile(const std::string& path, const JsonLimits& limits = {},
                                   bool lean = false, unsigned threads = 1);

/// What is done to each kernel as soon as it is read (on the reading threads, several at once).
using KernelVisitor = std::function<void(KernelRecord& kernel)>;

/// The visitor of a profile's kernels, given its header (the profile without kernels, read
/// first); an empty one to read the kernels as load_profile does.
using VisitorStart = std::function<KernelVisitor(const Profile& header)>;

/// load_profile (full) with each kernel handed to the visitor `start` gives, as soon as it is
/// read, so that no kernel holds what the caller does not need while the next ones are read.
/// `visited` tells whether every kernel went through it: false when find_kernels cannot split
/// the text, `start` gave none or anything is wrong, and then the kernels are as load_profile
/// reads them (the same profile, or the same error). Each kernel's text is released once read
/// (it is most of the memory), so that read reads the file a second time.
[[nodiscard]] Profile load_profile_visited(const std::string& path, const VisitorStart& start,
                                           bool& visited, unsigned threads = 1,
                                           const JsonLimits& limits = {});

/// The kernels at `positions` (ascending indices into the file's `kernels`) read in full, in that
/// order; the other kernels are lexed, not built, and the text after the last one is not read
/// (a second read of a file load_profile checked). Throws FormatError as load_profile does, and
/// when a position is past the file's kernels.
[[nodiscard]] std::vector<KernelRecord> load_kernels(const std::string& path,
                                                     const std::vector<std::size_t>& positions,
                                                     const JsonLimits& limits = {});

/// Pretty JSON (2-space indent, trailing newline); bytes that are not UTF-8 become U+FFFD.
[[nodiscard]] std::string dump_json(const nlohmann::json& document);

/// Pretty JSON (2-space indent, deterministic key order, trailing newline) of dump_json.
[[nodiscard]] std::string dump_profile(const Profile& profile);

/// dump_profile's text in parts, in order, each given to `emit` (about one kernel a part), so
/// that a writer need not hold the whole text (common::write_file_atomic_streamed).
void dump_profile_to(const Profile& profile, const std::function<void(std::string_view)>& emit);

/// Writes dump_profile's text to `path` with common::write_file_atomic_streamed (a kernel at a
/// time); "" or the one-line reason it could not. Never throws.
[[nodiscard]] std::string write_profile_file(const std::string& path, const Profile& profile,
                                             void (*on_temporary)(const char*) = nullptr) noexcept;

} // namespace irf::model
