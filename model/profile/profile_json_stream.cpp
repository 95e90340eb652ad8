// SPDX-License-Identifier: Apache-2.0
// A bounded, streaming parse of a profile document: nlohmann's SAX events, a document built only
// for what is kept, each kernel handed on as soon as it closes (docs/performance.md, "Tools on
// 100,000 kernels" and "irf-report merge").
#include "model/profile/profile_json_stream.hpp"

#include <cstring>
#include <vector>

namespace irf::model {

using nlohmann::json;

std::size_t value_limit(const JsonLimits& limits, std::size_t file_bytes) {
    return limits.max_values + file_bytes / limits.bytes_per_value;
}

namespace {

/// One container being built: where it is, and whether it is the top-level `kernels` array or
/// one kernel (and then whether that kernel is read lean).
struct Frame {
    json* value;
    bool kernels = false;
    bool kernel = false;
    bool lean = false;
};

/// The SAX handler (nlohmann's SAX interface, used statically as json_sax_dom_parser is).
class StreamHandler {
public:
    StreamHandler(const StreamSpec& spec, std::size_t limit) : m_spec(spec), m_limit(limit) {}

    bool null() { return scalar(json(nullptr)); }
    bool boolean(bool v) { return scalar(json(v)); }
    bool number_integer(json::number_integer_t v) { return scalar(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t& /*text*/) {
        return scalar(json(v));
    }
    bool string(json::string_t& v) { return scalar(json(std::move(v))); }
    bool binary(json::binary_t& /*v*/) { return true; } // never produced by the JSON lexer
    bool start_object(std::size_t /*size*/) { return open(json::object()); }
    bool start_array(std::size_t /*size*/) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(json::string_t& name) {
        if (m_skip_depth > 0) {
            return true;
        }
        const Frame& top = m_stack.back();
        m_next_is_kernels = m_stack.size() == 1 && name == "kernels";
        if (top.lean && (name == "counters" || name == "analysis")) {
            m_skip_next = true;
            return true;
        }
        m_slot = &(*top.value)[name];
        return true;
    }

    template <class Exception>
    bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& e) {
        throw e; // the exact nlohmann exception, as json::parse throws it
    }

    /// The document, kernels left out.
    json take_root() { return std::move(m_root); }
    /// The values counted so far.
    [[nodiscard]] std::size_t values() const { return m_values; }

private:
    // Counts a value against the limit and says whether it is built (not inside, or itself, a
    // subtree left out). The kernels' elements are numbered here, built or not.
    bool begin_value(KernelBuild& build) {
        if (++m_values > m_limit) {
            throw FormatError("more than " + std::to_string(m_limit) + " JSON values in its " +
                              std::to_string(m_spec.file_bytes) + " bytes (a profile may hold " +
                              std::to_string(m_spec.limits.max_values) + " plus one per " +
                              std::to_string(m_spec.limits.bytes_per_value) + " bytes)");
        }
        build = KernelBuild::full;
        if (m_skip_depth > 0) {
            return false;
        }
        if (m_skip_next) {
            m_skip_next = false;
            return false;
        }
        if (!m_stack.empty() && m_stack.back().kernels) {
            m_values += m_spec.limits.values_per_kernel;
            build = m_spec.build ? m_spec.build(m_kernel_index) : KernelBuild::full;
            if (build == KernelBuild::skipped) {
                ++m_kernel_index;
                return false;
            }
        }
        return true;
    }

    // Where a new value goes: the root, its array, its object's member, or (an element of
    // `kernels`) the kernel being read.
    json* place(json&& v) {
        if (m_stack.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        const Frame& top = m_stack.back();
        if (top.kernels) {
            m_kernel = std::move(v);
            return &m_kernel;
        }
        if (top.value->is_array()) {
            top.value->push_back(std::move(v));
            return &top.value->back();
        }
        *m_slot = std::move(v);
        return m_slot;
    }

    bool scalar(json&& v) {
        KernelBuild build = KernelBuild::full;
        if (!begin_value(build)) {
            return true;
        }
        const bool kernel = !m_stack.empty() && m_stack.back().kernels;
        place(std::move(v));
        return !kernel || hand_on_kernel();
    }

    bool open(json&& container) {
        if (++m_depth > m_spec.limits.max_depth) {
            throw FormatError("nested deeper than " + std::to_string(m_spec.limits.max_depth) +
                              " levels");
        }
        KernelBuild build = KernelBuild::full;
        if (!begin_value(build)) {
            ++m_skip_depth;
            return true;
        }
        Frame frame{nullptr};
        frame.kernel = !m_stack.empty() && m_stack.back().kernels;
        frame.lean = (frame.kernel && build == KernelBuild::lean && container.is_object()) ||
                     (m_stack.empty() && m_spec.root_lean && container.is_object());
        frame.kernels = m_stack.size() == 1 && m_next_is_kernels && container.is_array();
        frame.value = place(std::move(container));
        if (frame.kernels) {
            m_kernel_index = 0; // a repeated `kernels` key starts again, as the last one wins
        }
        m_stack.push_back(frame);
        return true;
    }

    bool close() {
        --m_depth;
        if (m_skip_depth > 0) {
            --m_skip_depth;
            return true;
        }
        const bool kernel = m_stack.back().kernel;
        m_stack.pop_back();
        return !kernel || hand_on_kernel();
    }

    // False (nlohmann's SAX: stop parsing) after spec.last_kernel.
    bool hand_on_kernel() {
        if (m_spec.on_kernel) {
            m_spec.on_kernel(m_kernel_index, m_kernel);
        }
        m_kernel = json();
        return m_kernel_index++ != m_spec.last_kernel;
    }

    const StreamSpec& m_spec;
    std::size_t m_limit;
    std::size_t m_values = 0;
    int m_depth = 0;
    int m_skip_depth = 0;     ///< containers open inside a subtree left out
    bool m_skip_next = false; ///< the next value (a lean kernel's counters or analysis) is left out
    bool m_next_is_kernels = false;
    json m_root;
    json m_kernel;
    json* m_slot = nullptr;
    std::vector<Frame> m_stack;
    std::size_t m_kernel_index = 0;
};

} // namespace

json parse_streamed(const std::string& text, const StreamSpec& spec) {
    StreamHandler handler(spec, value_limit(spec.limits, spec.file_bytes));
    json::sax_parse(text, &handler);
    if (spec.values_counted != nullptr) {
        *spec.values_counted = handler.values();
    }
    return handler.take_root();
}

json parse_streamed(const char* begin, const char* end, const StreamSpec& spec) {
    StreamHandler handler(spec, value_limit(spec.limits, spec.file_bytes));
    json::sax_parse(begin, end, &handler);
    if (spec.values_counted != nullptr) {
        *spec.values_counted = handler.values();
    }
    return handler.take_root();
}

namespace {

bool is_json_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::pair<std::size_t, std::size_t> trimmed_span(const std::string& text, std::size_t begin,
                                                 std::size_t end) {
    while (begin < end && is_json_space(text[begin])) {
        ++begin;
    }
    while (end > begin && is_json_space(text[end - 1])) {
        --end;
    }
    return {begin, end};
}

// Moves `i` from just inside a string to its closing quote, skipping each backslash and the
// byte after it; `escaped` is set when the string has a backslash. False when it never closes.
// memchr finds the quotes and backslashes: a profile is mostly strings and this scan runs on one
// thread before the kernels are parsed on several.
bool skip_string(const std::string& text, std::size_t& i, bool& escaped) {
    const std::size_t n = text.size();
    while (i < n) {
        const void* quote = std::memchr(text.data() + i, '"', n - i);
        if (quote == nullptr) {
            return false;
        }
        const auto close = static_cast<std::size_t>(static_cast<const char*>(quote) - text.data());
        const void* backslash = std::memchr(text.data() + i, '\\', close - i);
        if (backslash == nullptr) {
            i = close;
            return true;
        }
        escaped = true;
        i = static_cast<std::size_t>(static_cast<const char*>(backslash) - text.data()) + 2;
    }
    return false;
}

} // namespace

std::optional<KernelsLayout> find_kernels(const std::string& text) {
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n && is_json_space(text[i])) {
        ++i;
    }
    if (i == n || text[i] != '{') {
        return std::nullopt;
    }
    KernelsLayout out;
    bool found = false;
    bool in_kernels = false;      // inside the kernels array
    bool expect_key = false;      // the next string at depth 1 is a key
    bool next_is_kernels = false; // the value of the key "kernels" comes next
    std::size_t element = 0;      // where the current element of kernels begins
    int depth = 0;
    for (; i < n; ++i) {
        const char c = text[i];
        if (next_is_kernels && c != ':' && !is_json_space(c)) {
            if (c != '[') {
                return std::nullopt;
            }
            next_is_kernels = false;
            in_kernels = true;
            out.open = i;
            element = i + 1;
            ++depth;
            continue;
        }
        switch (c) {
        case '"': {
            const std::size_t start = ++i;
            bool escaped = false;
            if (!skip_string(text, i, escaped)) {
                return std::nullopt;
            }
            if (depth == 1 && expect_key) {
                expect_key = false;
                if (escaped) {
                    return std::nullopt; // "kern\u0065ls" would be the same key
                }
                if (text.compare(start, i - start, "kernels") == 0) {
                    if (found) {
                        return std::nullopt; // a repeated key: the sequential read decides
                    }
                    found = next_is_kernels = true;
                }
            }
            break;
        }
        case '{':
        case '[':
            ++depth;
            expect_key = depth == 1 && c == '{';
            break;
        case '}':
        case ']':
            if (in_kernels && depth == 2) {
                out.elements.push_back(trimmed_span(text, element, i));
                out.close = i;
                in_kernels = false;
            }
            --depth;
            break;
        case ',':
            expect_key = depth == 1;
            if (in_kernels && depth == 2) {
                out.elements.push_back(trimmed_span(text, element, i));
                element = i + 1;
            }
            break;
        default:
            break;
        }
    }
    if (!found || in_kernels || next_is_kernels) {
        return std::nullopt;
    }
    if (out.elements.size() == 1 && out.elements[0].first == out.elements[0].second) {
        out.elements.clear(); // "[]"
    }
    return out;
}

} // namespace irf::model
