// SPDX-License-Identifier: Apache-2.0
// Reading a profile file: bounded read, then a bounded parse that converts each kernel as soon
// as it is parsed, so the whole document is never built (it took about 5 x the file).
#include <algorithm>
#include <atomic>
#include <exception>
#include <new>
#include <optional>
#include <string_view>

#include "common/file_io.hpp"
#include "common/memory_pages.hpp"
#include "common/parallel.hpp"
#include "model/profile/profile_json_stream.hpp"

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

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A lean read of the kernel at [from, to): its text with the values of its top-level `counters`
// and `analysis` (keys without escapes) replaced by 0 once skim_json checked them, their values
// less the one each 0 counts added to `skipped_values`. nlohmann's lexer took most of a lean
// read of these values it never builds (docs/performance.md, "irf-report merge"). nullopt when
// skim_json refuses a value of the kernel or the nesting passes `max_depth`, for nlohmann's
// parser to read the kernel as it is.
std::optional<std::string> lean_text(const std::string& text, std::size_t from, std::size_t to,
                                     int max_depth, std::size_t& skipped_values) {
    std::string out;
    std::size_t copied = from;
    std::size_t pos = from;
    const auto space = [&] {
        while (pos < to && is_space(text[pos])) {
            ++pos;
        }
    };
    if (pos >= to || text[pos] != '{') {
        return std::nullopt;
    }
    ++pos;
    for (;;) {
        space();
        if (pos < to && text[pos] == '}' && pos + 1 == to) {
            break;
        }
        const auto key =
            pos < to && text[pos] == '"' ? skim_json(text.data(), pos, to) : std::nullopt;
        if (!key) {
            return std::nullopt;
        }
        const std::string_view name(text.data() + pos + 1, key->end - pos - 2);
        pos = key->end;
        space();
        if (pos >= to || text[pos] != ':') {
            return std::nullopt;
        }
        ++pos;
        space();
        const auto value = skim_json(text.data(), pos, to);
        if (!value || 3 + value->depth > max_depth) { // the kernel sits at depth 3
            return std::nullopt;
        }
        if (name == "counters" || name == "analysis") {
            out.append(text, copied, pos - copied).append("0");
            copied = value->end;
            skipped_values += value->values - 1;
        }
        pos = value->end;
        space();
        if (pos < to && text[pos] == ',') {
            ++pos;
        } else if (!(pos < to && text[pos] == '}' && pos + 1 == to)) {
            return std::nullopt;
        }
    }
    return out.append(text, copied, to - copied);
}

// Below this many kernels a thread each is not worth starting.
constexpr std::size_t k_kernels_per_thread = 256;
// The text a thread has read before it releases it: a system call per 64 pages.
constexpr std::size_t k_release_bytes = std::size_t{256} << 10;

// The header of `text` (the document with an empty `kernels`), checked as profile_from_parts
// checks it, its values added to `values`; nullopt when anything is wrong (an element in what
// should be empty, an error).
std::optional<Profile> read_header(const std::string& text, const KernelsLayout& layout,
                                   const JsonLimits& limits, std::size_t& values) {
    try {
        const std::string rest = text.substr(0, layout.open + 1) + text.substr(layout.close);
        bool kernel_seen = false;
        StreamSpec spec{limits, text.size(), nullptr,
                        [&kernel_seen](std::size_t, const json&) { kernel_seen = true; }};
        spec.values_counted = &values;
        const json document = parse_streamed(rest, spec);
        if (kernel_seen) {
            return std::nullopt;
        }
        return profile_from_parts(document, [&document](Profile&) {
            JsonNode(document, "").at("kernels").expect_array();
        });
    } catch (...) {
        return std::nullopt;
    }
}

// Reads the header of `layout`, then its kernels on up to `threads` threads, each element parsed
// alone and handed to the visitor `start` gives for the header (if any; `visited` says whether
// one ran), and `release` (text.data(), the caller's own) given, each thread's text released as
// it goes (docs/performance.md, "Tools' memory"); nullopt when anything is wrong or odd (an error,
// a limit), for the sequential read to find and report exactly as before. The values and depth are
// counted as the sequential read counts them, so what this accepts it accepts, with the same
// profile.
std::optional<Profile> read_parallel(const std::string& text, const KernelsLayout& layout,
                                     const JsonLimits& limits, bool lean, unsigned threads,
                                     const VisitorStart* start = nullptr, bool* visited = nullptr,
                                     char* release = nullptr) {
    const std::size_t n = layout.elements.size();
    std::size_t header_values = 0;
    std::optional<Profile> profile;
    if (limits.max_depth < 3 || !(profile = read_header(text, layout, limits, header_values))) {
        return std::nullopt;
    }
    JsonLimits inner = limits;
    inner.max_depth = limits.max_depth - 2; // an element sits in the root and in `kernels`
    KernelVisitor visit;
    try {
        visit = start && *start ? (*start)(*profile) : KernelVisitor();
    } catch (...) {
        return std::nullopt;
    }
    std::vector<KernelRecord> kernels(n);
    std::atomic<bool> failed{false};
    std::atomic<std::size_t> values{0};
    const auto read_range = [&](std::size_t begin, std::size_t end) {
        std::size_t counted = 0;
        std::size_t released = begin < end ? layout.elements[begin].first : 0;
        try {
            for (std::size_t i = begin; i < end && !failed; ++i) {
                const auto [from, to] = layout.elements[i];
                std::size_t element_values = 0;
                StreamSpec spec{inner, text.size(), nullptr, nullptr};
                spec.root_lean = lean;
                spec.values_counted = &element_values;
                const auto skimmed =
                    lean ? lean_text(text, from, to, limits.max_depth, element_values)
                         : std::nullopt;
                const std::size_t skipped = element_values;
                const json kernel =
                    skimmed ? parse_streamed(*skimmed, spec)
                            : parse_streamed(text.data() + from, text.data() + to, spec);
                element_values += skipped;
                kernels[i] =
                    kernel_from_json(JsonNode(kernel, "kernels[" + std::to_string(i) + "]"));
                if (visit) {
                    visit(kernels[i]);
                }
                if (release && to - released >= k_release_bytes) {
                    common::release_pages(release + released, release + to);
                    released = to;
                }
                counted += element_values + limits.values_per_kernel;
            }
        } catch (...) {
            failed = true;
        }
        values += counted;
    };
    common::for_each_range(n, threads, k_kernels_per_thread, read_range);
    if (failed || header_values + values > value_limit(limits, text.size())) {
        return std::nullopt;
    }
    profile->kernels = std::move(kernels);
    if (visited) {
        *visited = static_cast<bool>(visit);
    }
    return profile;
}

} // namespace

Profile profile_from_text(const std::string& text, const JsonLimits& limits, bool lean,
                          unsigned threads) {
    if (threads > 1 || lean) {
        // Lean, even one thread gains: lean_text skims what nlohmann's lexer would lex.
        if (const auto layout = find_kernels(text);
            layout && (lean ? !layout->elements.empty()
                            : layout->elements.size() >= 2 * k_kernels_per_thread)) {
            if (auto profile = read_parallel(text, *layout, limits, lean, threads)) {
                return std::move(*profile);
            }
        }
    }
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

Profile load_profile(const std::string& path, const JsonLimits& limits, bool lean,
                     unsigned threads) {
    const std::string text = read_text(path);
    return with_path(path, [&] { return profile_from_text(text, limits, lean, threads); });
}

Profile load_profile_visited(const std::string& path, const VisitorStart& start, bool& visited,
                             unsigned threads, const JsonLimits& limits) {
    visited = false;
    std::string text = read_text(path);
    return with_path(path, [&] {
        if (const auto layout = find_kernels(text); layout && !layout->elements.empty()) {
            if (auto profile = read_parallel(text, *layout, limits, false, std::max(threads, 1u),
                                             &start, &visited, text.data())) {
                return std::move(*profile);
            }
            // Its kernels' text is gone: the read that finds what is wrong reads the file again.
            std::string().swap(text);
            if (const std::string error = common::read_file_bounded(path, text); !error.empty()) {
                throw FormatError(error);
            }
        }
        return profile_from_text(text, limits, false, threads);
    });
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
