// SPDX-License-Identifier: Apache-2.0
// Typed, path-tracking access to a JSON document for the profile reader (internal to model/).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace irf::model {

/// A JSON value and its path from the document root ("kernels[3].launches"). Every accessor
/// throws FormatError naming the path when the value is present but has the wrong type.
class JsonNode {
public:
    JsonNode(const nlohmann::json& value, std::string path)
        : m_value(&value), m_path(std::move(path)) {}

    /// The path of this value from the root ("" for the root itself).
    [[nodiscard]] const std::string& path() const { return m_path; }
    /// The underlying value.
    [[nodiscard]] const nlohmann::json& value() const { return *m_value; }
    /// True when `key` exists and is not null (this must be an object).
    [[nodiscard]] bool has(const std::string& key) const;
    /// The member `key`; throws when it is absent.
    [[nodiscard]] JsonNode at(const std::string& key) const;
    /// Element `i` of an array.
    [[nodiscard]] JsonNode at(std::size_t i) const;
    /// Throws unless this is an object / array.
    void expect_object() const;
    void expect_array() const;

    /// Member accessors: the value of `key`, or `fallback` when absent or null.
    [[nodiscard]] std::string str(const std::string& key, const std::string& fallback = "") const;
    [[nodiscard]] double num(const std::string& key, double fallback = 0) const;
    [[nodiscard]] std::optional<double> opt_num(const std::string& key) const;
    [[nodiscard]] std::uint64_t count(const std::string& key, std::uint64_t fallback = 0) const;
    /// An object member of numbers as a map (null members left out); empty when absent or null.
    [[nodiscard]] std::map<std::string, double> num_map(const std::string& key) const;
    /// An integer member within +-(2^31 - 1) (pid, rank, SM count, passes).
    [[nodiscard]] std::int64_t integer(const std::string& key, std::int64_t fallback = 0) const;

    /// This value as a finite number / non-negative integer / string.
    [[nodiscard]] double as_num() const;
    [[nodiscard]] std::uint64_t as_count() const;
    [[nodiscard]] std::string as_str() const;
    /// This value as an array of strings.
    [[nodiscard]] std::vector<std::string> as_strings() const;

    /// Throws FormatError "<path>: <what>".
    [[noreturn]] void fail(const std::string& what) const;

private:
    const nlohmann::json* m_value;
    std::string m_path;
};

/// What skim_json found of one JSON value.
struct Skimmed {
    std::size_t end = 0;    ///< offset just past the value
    std::size_t values = 0; ///< the value and every value inside it, containers included
    int depth = 0;          ///< containers nested, the value itself counted (0: a scalar)
};

/// Checks the JSON value at text[begin] (no space before it) without building it, at least as
/// strictly as nlohmann's parser: a number that might not fit a double, a \u escape or a byte
/// over 0x7f is refused too, as is nesting past 256. nullopt when refused, for nlohmann's parser
/// to read the text and say what is wrong.
[[nodiscard]] std::optional<Skimmed> skim_json(const char* text, std::size_t begin,
                                               std::size_t size);

} // namespace irf::model
