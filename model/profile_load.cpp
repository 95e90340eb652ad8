// SPDX-License-Identifier: Apache-2.0
// Reading a profile file: bounded read, bounded parse, then profile_from_json.
#include <new>

#include "common/file_io.hpp"
#include "model/profile_json.hpp"

namespace irf::model {

using nlohmann::json;

namespace {

/// Parses `text`, refusing more values or deeper nesting than `limits` before they are built.
json parse_bounded(const std::string& text, const JsonLimits& limits) {
    std::size_t values = 0;
    const json::parser_callback_t bound = [&values, &limits](int depth, json::parse_event_t event,
                                                             json& /*parsed*/) {
        if (depth > limits.max_depth) {
            throw FormatError("nested deeper than " + std::to_string(limits.max_depth) + " levels");
        }
        if ((event == json::parse_event_t::value || event == json::parse_event_t::object_start ||
             event == json::parse_event_t::array_start) &&
            ++values > limits.max_values) {
            throw FormatError("more than " + std::to_string(limits.max_values) +
                              " JSON values (the limit of a profile)");
        }
        return true;
    };
    return json::parse(text, bound);
}

} // namespace

Profile load_profile(const std::string& path, const JsonLimits& limits) {
    std::string text;
    if (const std::string error = common::read_file_bounded(path, text); !error.empty()) {
        throw FormatError(path + ": " + error);
    }
    json document;
    try {
        document = parse_bounded(text, limits);
    } catch (const FormatError& e) {
        throw FormatError(path + ": " + e.what());
    } catch (const std::bad_alloc&) {
        throw FormatError(path + ": out of memory while reading it (too large for this "
                                 "process's memory limit)");
    } catch (const json::exception& e) {
        // parse_error names the byte offset; out_of_range covers numbers beyond double range
        // (1e999999). Both are bad input, not an internal error. Keep it on one line.
        throw FormatError(path + ": not valid JSON: " + e.what());
    }
    try {
        return profile_from_json(document);
    } catch (const FormatError& e) {
        throw FormatError(path + ": " + e.what());
    }
}

} // namespace irf::model
