// SPDX-License-Identifier: Apache-2.0
// Typed, path-tracking access to a JSON document for the profile reader.
#include "model/json_reader.hpp"

#include <cmath>

#include "model/profile_json.hpp"

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
