// SPDX-License-Identifier: Apache-2.0
// A bounded, streaming parse of a profile document (internal to model/): the header is built as
// a document, each element of the top-level `kernels` array is built alone, handed on and
// dropped, and the subtrees a reader does not want are lexed but never built.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/profile/json_reader.hpp"
#include "model/profile/profile_json.hpp"

namespace irf::model {

/// What the streaming parse builds of kernel `index` (its position in `kernels`).
enum class KernelBuild {
    full,    ///< every key
    lean,    ///< all but `counters` and `analysis`
    skipped, ///< nothing: the kernel is never handed on
};

/// How to stream a document: its limits, the file size they scale with, what to build of each
/// kernel and where each built kernel goes (`index`, the element as a document).
struct StreamSpec {
    JsonLimits limits;
    std::size_t file_bytes = 0;
    std::function<KernelBuild(std::size_t index)> build;
    std::function<void(std::size_t index, const nlohmann::json& kernel)> on_kernel;
    /// Stop parsing once this kernel is handed on (what follows is neither read nor checked).
    std::size_t last_kernel = static_cast<std::size_t>(-1);
    /// The text is one element of `kernels` alone, to be read lean (its root object's `counters`
    /// and `analysis` lexed, not built).
    bool root_lean = false;
    /// Where the number of values counted against the limit goes, when set (a whole parse only).
    std::size_t* values_counted = nullptr;
};

/// Where the elements of the top-level `kernels` array lie in a profile's text.
struct KernelsLayout {
    std::size_t open = 0;                                      ///< offset of the array's '['
    std::size_t close = 0;                                     ///< offset of its ']'
    std::vector<std::pair<std::size_t, std::size_t>> elements; ///< [begin, end) of each, trimmed
};

/// The layout of `text` from a scan of its strings and brackets alone (nothing else is checked:
/// each part must still be parsed); nullopt unless the root is an object with one `kernels` key,
/// written without escapes, whose value is an array that closes.
[[nodiscard]] std::optional<KernelsLayout> find_kernels(const std::string& text);

/// One element of `kernels` (its path "kernels[i]"), as profile_from_json reads it.
[[nodiscard]] KernelRecord kernel_from_json(const JsonNode& n);

/// profile_from_json with the kernels added by `kernels`, called where profile_from_json reads
/// them so that a document's first error is the same either way.
[[nodiscard]] Profile profile_from_parts(const nlohmann::json& document,
                                         const std::function<void(Profile&)>& kernels);

/// The most values `limits` allow in a file of `file_bytes` (kernels counted as
/// JsonLimits::values_per_kernel more each).
[[nodiscard]] std::size_t value_limit(const JsonLimits& limits, std::size_t file_bytes);

/// Parses `text`; returns the document without the elements of its top-level `kernels` (an empty
/// array stays in their place), as far as spec.last_kernel. Throws FormatError past the limits and
/// nlohmann's exceptions on invalid JSON; what on_kernel throws passes through.
[[nodiscard]] nlohmann::json parse_streamed(const std::string& text, const StreamSpec& spec);

/// parse_streamed of the text in [begin, end) (a part of a larger text, not copied).
[[nodiscard]] nlohmann::json parse_streamed(const char* begin, const char* end,
                                            const StreamSpec& spec);

} // namespace irf::model
