// SPDX-License-Identifier: Apache-2.0
// Output stem placeholders (%a %h %p %r %j %q{VAR} %%) and the batch job id.
#include <stdexcept>
#include <string>
#include <string_view>

#include "config/env.hpp"

namespace irf::config {
namespace {

/// Replaces '/' so that a host or app name can never make the stem point elsewhere.
std::string path_safe(std::string value) {
    for (char& ch : value) {
        if (ch == '/') {
            ch = '_';
        }
    }
    return value;
}

/// Position after "%q{VAR}" starting at `pos` (the 'q'), or npos when malformed.
std::size_t after_q(const std::string& stem, std::size_t pos, std::string& name) {
    if (pos + 1 >= stem.size() || stem[pos + 1] != '{') {
        return std::string::npos;
    }
    const std::size_t close = stem.find('}', pos + 2);
    if (close == std::string::npos || close == pos + 2) {
        return std::string::npos;
    }
    name = stem.substr(pos + 2, close - pos - 2);
    return close + 1;
}

} // namespace

std::optional<std::string> detect_job_id(const EnvLookup& env) {
    for (const char* name :
         {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "COBALT_JOBID", "FLUX_JOB_ID", "JOB_ID"}) {
        const char* value = env(name);
        if (value != nullptr && *value != '\0') {
            return std::string(value);
        }
    }
    return std::nullopt;
}

std::string check_stem(const std::string& stem) {
    if (stem.empty()) {
        return "empty stem";
    }
    for (std::size_t i = 0; i < stem.size(); ++i) {
        if (stem[i] != '%') {
            continue;
        }
        if (i + 1 >= stem.size()) {
            return "'%' at the end (write %% for a literal %)";
        }
        const char kind = stem[i + 1];
        if (kind == 'q') {
            std::string name;
            const std::size_t next = after_q(stem, i + 1, name);
            if (next == std::string::npos) {
                return "%q needs a variable name in braces, e.g. %q{USER}";
            }
            i = next - 1;
            continue;
        }
        if (std::string("ahprj%").find(kind) == std::string::npos) {
            return std::string("unknown placeholder %") + kind;
        }
        ++i;
    }
    if (stem.back() == '/') {
        return "stem names a directory (add a file name after the '/')";
    }
    return "";
}

std::string stem_with_rank(const std::string& stem, std::optional<int> rank) {
    if (!rank) {
        return stem;
    }
    for (std::size_t i = 0; i + 1 < stem.size(); ++i) {
        if (stem[i] == '%') {
            if (stem[i + 1] == 'r') {
                return stem;
            }
            ++i; // skip the placeholder letter (so "%%r" is not a rank)
        }
    }
    return stem + "-r%r";
}

std::string expand_stem(const std::string& stem, const StemContext& context) {
    std::string out;
    // Where the current '/'-separated component of `stem` starts, in `stem` and in `out`: a
    // component written with placeholders that expands to nothing would turn "%q{V}/p" into
    // "/p" (the root) or "%q{V}" into "" (a hidden ".json"), so it is refused.
    std::size_t component_in = 0, component_out = 0;
    bool named = false; // the component holds an %a, %h or %j value
    const auto end_component = [&](std::size_t in_pos) {
        if (in_pos > component_in && out.size() == component_out) {
            throw std::invalid_argument(
                "IRF_OUTPUT=" + stem + ": \"" + stem.substr(component_in, in_pos - component_in) +
                "\" expands to an empty path component (unset or empty variable?)");
        }
        // A job id or app name of "." or ".." would make the component this directory or its
        // parent, so "prof/%j/x" could write outside prof (issue 52 item 10).
        const std::string_view part = std::string_view(out).substr(component_out);
        if (named && (part == "." || part == "..")) {
            out.replace(component_out, part.size(), part.size(), '_');
        }
        named = false;
    };
    for (std::size_t i = 0; i < stem.size(); ++i) {
        if (stem[i] == '/') {
            end_component(i);
            out += '/';
            component_in = i + 1;
            component_out = out.size();
            continue;
        }
        if (stem[i] != '%' || i + 1 >= stem.size()) {
            out += stem[i];
            continue;
        }
        const char kind = stem[++i];
        named = named || kind == 'a' || kind == 'h' || kind == 'j';
        switch (kind) {
        case 'a':
            out += path_safe(context.app);
            break;
        case 'h':
            out += path_safe(context.host);
            break;
        case 'p':
            out += std::to_string(context.pid);
            break;
        case 'r':
            out += std::to_string(context.rank.value_or(0));
            break;
        case 'j':
            out += path_safe(context.env ? detect_job_id(context.env).value_or("0") : "0");
            break;
        case 'q': {
            std::string name;
            const std::size_t next = after_q(stem, i, name);
            if (next == std::string::npos) {
                out += "%q";
                break;
            }
            const char* value = context.env ? context.env(name.c_str()) : nullptr;
            out += value != nullptr ? value : "";
            i = next - 1;
            break;
        }
        default: // "%%" and anything check_stem would have refused
            out += kind;
            break;
        }
    }
    end_component(stem.size());
    if (!out.empty() && out.back() == '/') {
        // A %q{V} value ending in '/' left the file name empty: a hidden ".json" (issue #39).
        throw std::invalid_argument("IRF_OUTPUT=" + stem +
                                    ": expands to a directory (ends in '/'); the file name "
                                    "after it is missing");
    }
    return out;
}

} // namespace irf::config
