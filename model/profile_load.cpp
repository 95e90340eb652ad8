// SPDX-License-Identifier: Apache-2.0
// Reading a profile file: bounded read, then a bounded parse that converts each kernel as soon
// as it is parsed, so the whole document is never built (it took about 5 x the file).
#include <algorithm>
#include <exception>
#include <new>

#include "common/file_io.hpp"
#include "model/profile_json_stream.hpp"

namespace irf::model {

using nlohmann::json;

namespace {

std::string read_text(const std::string& path) {
    std::string text;
    if (const std::string error = common::read_file_bounded(path, text); !error.empty()) {
        throw FormatError(path + ": " + error);
    }
    return text;
}

/// Runs `read` (a parse of `path`), mapping every failure to one FormatError line naming it.
template <class Read> auto with_path(const std::string& path, Read&& read) {
    try {
        return read();
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
}

/// Converts each kernel as it closes. The first kernel error is kept and thrown where
/// profile_from_json would meet it (after the header's errors), so messages do not change.
class KernelCollector {
public:
    void add(std::size_t index, const json& kernel) {
        if (index == 0) {
            m_kernels.clear(); // a repeated `kernels` key: the last one wins, as in a document
            m_error = nullptr;
        }
        if (m_error) {
            return;
        }
        try {
            m_kernels.push_back(
                kernel_from_json(JsonNode(kernel, "kernels[" + std::to_string(index) + "]")));
        } catch (const FormatError&) {
            m_error = std::current_exception();
        }
    }
    std::vector<KernelRecord> take() {
        if (m_error) {
            std::rethrow_exception(m_error);
        }
        return std::move(m_kernels);
    }

private:
    std::vector<KernelRecord> m_kernels;
    std::exception_ptr m_error;
};

} // namespace

Profile profile_from_text(const std::string& text, const JsonLimits& limits, bool lean) {
    KernelCollector collected;
    StreamSpec spec{limits, text.size(), nullptr,
                    [&collected](std::size_t i, const json& k) { collected.add(i, k); }};
    if (lean) {
        spec.build = [](std::size_t) { return KernelBuild::lean; };
    }
    const json document = parse_streamed(text, spec);
    return profile_from_parts(document, [&collected, &document](Profile& p) {
        JsonNode(document, "").at("kernels").expect_array();
        p.kernels = collected.take();
    });
}

Profile load_profile(const std::string& path, const JsonLimits& limits, bool lean) {
    const std::string text = read_text(path);
    return with_path(path, [&] { return profile_from_text(text, limits, lean); });
}

std::vector<KernelRecord> load_kernels(const std::string& path,
                                       const std::vector<std::size_t>& positions,
                                       const JsonLimits& limits) {
    const std::string text = read_text(path);
    return with_path(path, [&] {
        KernelCollector collected;
        const auto wanted = [&positions](std::size_t i) {
            return std::binary_search(positions.begin(), positions.end(), i);
        };
        StreamSpec spec{limits, text.size(),
                        [&wanted](std::size_t i) {
                            return wanted(i) ? KernelBuild::full : KernelBuild::skipped;
                        },
                        [&collected](std::size_t i, const json& k) { collected.add(i, k); }};
        if (!positions.empty()) {
            spec.last_kernel = positions.back();
        }
        (void)parse_streamed(text, spec);
        std::vector<KernelRecord> kernels = collected.take();
        if (kernels.size() != positions.size()) {
            throw FormatError("kernels: " + std::to_string(positions.size()) +
                              " kernels asked for, " + std::to_string(kernels.size()) + " found");
        }
        return kernels;
    });
}

} // namespace irf::model
