// SPDX-License-Identifier: Apache-2.0
// Typed, path-tracking access to a JSON document for the profile reader.
#include "model/profile/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/profile/profile_json.hpp"

namespace irf::model {

void JsonNode::fail(const std::string& what) const {
    throw FormatError((m_path.empty() ? std::string("(root)") : m_path) + ": " + what);
}

void JsonNode::expect_object() const {
    if (!m_value->is_object()) {
        fail("expected an object");
    }
}

void JsonNode::expect_array() const {
    if (!m_value->is_array()) {
        fail("expected an array");
    }
}

bool JsonNode::has(const std::string& key) const {
    expect_object();
    const auto it = m_value->find(key);
    return it != m_value->end() && !it->is_null();
}

JsonNode JsonNode::at(const std::string& key) const {
    expect_object();
    const auto it = m_value->find(key);
    const std::string child = m_path.empty() ? key : m_path + "." + key;
    if (it == m_value->end()) {
        throw FormatError(child + ": missing");
    }
    return JsonNode(*it, child);
}

JsonNode JsonNode::at(std::size_t i) const {
    expect_array();
    return JsonNode(m_value->at(i), m_path + "[" + std::to_string(i) + "]");
}

double JsonNode::as_num() const {
    if (!m_value->is_number()) {
        fail("expected a number");
    }
    const double v = m_value->get<double>();
    if (!std::isfinite(v)) {
        fail("expected a finite number");
    }
    return v;
}

std::uint64_t JsonNode::as_count() const {
    if (m_value->is_number_unsigned()) {
        return m_value->get<std::uint64_t>();
    }
    const double v = as_num();
    if (v < 0 || v != std::floor(v) || v > 1.8e19) {
        fail("expected a non-negative integer");
    }
    return static_cast<std::uint64_t>(v);
}

std::string JsonNode::as_str() const {
    if (!m_value->is_string()) {
        fail("expected a string");
    }
    return m_value->get<std::string>();
}

std::vector<std::string> JsonNode::as_strings() const {
    expect_array();
    std::vector<std::string> out;
    for (std::size_t i = 0; i < m_value->size(); ++i) {
        out.push_back(at(i).as_str());
    }
    return out;
}

std::string JsonNode::str(const std::string& key, const std::string& fallback) const {
    return has(key) ? at(key).as_str() : fallback;
}

double JsonNode::num(const std::string& key, double fallback) const {
    return has(key) ? at(key).as_num() : fallback;
}

std::optional<double> JsonNode::opt_num(const std::string& key) const {
    return has(key) ? std::optional<double>(at(key).as_num()) : std::nullopt;
}

std::map<std::string, double> JsonNode::num_map(const std::string& key) const {
    std::map<std::string, double> out;
    if (!has(key)) {
        return out;
    }
    const JsonNode object = at(key);
    object.expect_object();
    for (auto it = object.value().begin(); it != object.value().end(); ++it) {
        if (!it->is_null()) {
            out[it.key()] = object.at(it.key()).as_num();
        }
    }
    return out;
}

std::uint64_t JsonNode::count(const std::string& key, std::uint64_t fallback) const {
    return has(key) ? at(key).as_count() : fallback;
}

std::int64_t JsonNode::integer(const std::string& key, std::int64_t fallback) const {
    if (!has(key)) {
        return fallback;
    }
    const JsonNode n = at(key);
    const double v = n.as_num();
    if (v != std::floor(v)) {
        n.fail("expected an integer");
    }
    // Values the model keeps as int (pid, rank, sms, passes) never need more than 2^31.
    if (std::fabs(v) > 2147483647.0) {
        n.fail("integer out of range");
    }
    return static_cast<std::int64_t>(v);
}

} // namespace irf::model

namespace irf::model {
namespace {

constexpr int k_max_skim_depth = 256;

/// A cursor over a text that skims JSON values, counting them; false from any step: refused.
class Skimmer {
public:
    Skimmer(const char* text, std::size_t size) : m_text(text), m_size(size) {}

    std::size_t pos = 0;
    std::size_t values = 0;
    int depth = 0;

    bool value(int level) {
        ++values;
        if (pos >= m_size) {
            return false;
        }
        switch (m_text[pos]) {
        case '{':
            return container(level, '}', true);
        case '[':
            return container(level, ']', false);
        case '"':
            return string();
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            return number();
        }
    }

private:
    void space() {
        while (pos < m_size && (m_text[pos] == ' ' || m_text[pos] == '\t' || m_text[pos] == '\n' ||
                                m_text[pos] == '\r')) {
            ++pos;
        }
    }

    bool container(int level, char close, bool object) {
        if (level + 1 > k_max_skim_depth) {
            return false;
        }
        depth = std::max(depth, level + 1);
        ++pos;
        space();
        if (pos < m_size && m_text[pos] == close) {
            ++pos;
            return true;
        }
        for (;;) {
            if (object) {
                if (pos >= m_size || m_text[pos] != '"' || !string()) {
                    return false;
                }
                space();
                if (pos >= m_size || m_text[pos] != ':') {
                    return false;
                }
                ++pos;
                space();
            }
            if (!value(level + 1)) {
                return false;
            }
            space();
            if (pos >= m_size) {
                return false;
            }
            if (m_text[pos] == close) {
                ++pos;
                return true;
            }
            if (m_text[pos] != ',') {
                return false;
            }
            ++pos;
            space();
        }
    }

    // Printable ASCII and the one-character escapes only.
    bool string() {
        for (++pos; pos < m_size; ++pos) {
            const auto c = static_cast<unsigned char>(m_text[pos]);
            if (c == '"') {
                ++pos;
                return true;
            }
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
            if (c == '\\') {
                if (++pos >= m_size) {
                    return false;
                }
                const char e = m_text[pos];
                if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' &&
                    e != 'r' && e != 't') {
                    return false;
                }
            }
        }
        return false;
    }

    bool literal(const char* word) {
        for (; *word != '\0'; ++word, ++pos) {
            if (pos >= m_size || m_text[pos] != *word) {
                return false;
            }
        }
        return true;
    }

    std::size_t digits() {
        const std::size_t start = pos;
        while (pos < m_size && m_text[pos] >= '0' && m_text[pos] <= '9') {
            ++pos;
        }
        return pos - start;
    }

    // RFC 8259's grammar, at most 300 digits before the point plus exponent (so the value is a
    // finite double) and an exponent of at most 4 digits.
    bool number() {
        if (pos < m_size && m_text[pos] == '-') {
            ++pos;
        }
        if (pos >= m_size || m_text[pos] < '0' || m_text[pos] > '9') {
            return false;
        }
        const std::size_t first = pos;
        const std::size_t whole = digits();
        if (whole > 1 && m_text[first] == '0') {
            return false;
        }
        if (pos < m_size && m_text[pos] == '.') {
            ++pos;
            if (digits() == 0) {
                return false;
            }
        }
        long exponent = 0;
        if (pos < m_size && (m_text[pos] == 'e' || m_text[pos] == 'E')) {
            ++pos;
            const bool negative = pos < m_size && m_text[pos] == '-';
            if (pos < m_size && (m_text[pos] == '-' || m_text[pos] == '+')) {
                ++pos;
            }
            const std::size_t start = pos;
            const std::size_t n = digits();
            if (n == 0 || n > 4) {
                return false;
            }
            exponent = std::strtol(std::string(m_text + start, n).c_str(), nullptr, 10);
            exponent = negative ? -exponent : exponent;
        }
        return static_cast<long>(whole) + exponent <= 300;
    }

    const char* m_text;
    std::size_t m_size;
};

} // namespace

std::optional<Skimmed> skim_json(const char* text, std::size_t begin, std::size_t size) {
    Skimmer skim(text, size);
    skim.pos = begin;
    if (!skim.value(0)) {
        return std::nullopt;
    }
    return Skimmed{skim.pos, skim.values, skim.depth};
}

} // namespace irf::model
