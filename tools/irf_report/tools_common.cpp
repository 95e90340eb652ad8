// SPDX-License-Identifier: Apache-2.0
// Helpers shared by irf-report merge, compare and csv.
#include "tools/irf_report/tools_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include <sys/stat.h>

#include "common/file_io.hpp"
#include "common/kernel_identity.hpp"
#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "config/kernel_regex.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/profile/profile_json.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/reanalysis.hpp"

namespace irf::report {

model::Profile load_input_with(const std::string& path,
                               const std::function<model::Profile()>& read) {
    model::Profile profile;
    try {
        profile = read();
    } catch (const model::FormatError& e) {
        const std::string message = e.what();
        // load_profile names the path in most messages; make sure every one does.
        throw InputError(message.rfind(path, 0) == 0 ? message : path + ": " + message);
    }
    if (profile.kernels.empty()) {
        throw InputError(path + ": kernels: the profile has no kernel");
    }
    return profile;
}

model::Profile load_input(const std::string& path, bool lean, unsigned threads) {
    return load_input_with(path, [&] {
        return model::load_profile(path, {}, lean, threads == 0 ? analysis_threads() : threads);
    });
}

void keep_matching_kernels(model::Profile& profile, const std::string& pattern,
                           const std::string& option) {
    if (pattern.empty()) {
        return;
    }
    const config::KernelRegex re(pattern);
    if (!re.ok()) {
        throw InputError(option + " '" + pattern + "': " + re.problem());
    }
    auto& kernels = profile.kernels;
    kernels.erase(
        std::remove_if(kernels.begin(), kernels.end(),
                       [&re](const model::KernelRecord& k) { return !re.search(k.name); }),
        kernels.end());
    if (kernels.empty()) {
        throw InputError(option + " '" + pattern + "': no kernel matches");
    }
}

void keep_until_exit(model::Profile&& profile) {
    // Never destroyed, and reachable through this pointer until the end (so a leak checker does
    // not report it).
    static auto* const kept = new std::vector<model::Profile>();
    kept->push_back(std::move(profile));
}

void emit_output(const std::string& text, const std::string& path) {
    emit_output_streamed([&text](const common::EmitPart& emit) { emit(text); }, path);
}

void emit_output_streamed(const std::function<void(const common::EmitPart&)>& produce,
                          const std::string& path) {
    if (path.empty()) {
        produce([](std::string_view part) { std::cout << part; });
        return;
    }
    if (const std::string error = common::write_file_atomic_streamed(path, produce);
        !error.empty()) {
        throw InputError(error);
    }
}

void refuse_output_over_inputs(const std::string& command, const std::string& output,
                               const std::vector<std::string>& inputs) {
    struct stat out {};
    if (output.empty() || ::stat(output.c_str(), &out) != 0) {
        return;
    }
    for (const std::string& input : inputs) {
        struct stat in {};
        if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev &&
            in.st_ino == out.st_ino) {
            throw InputError(command + ": -o " + output + " is the input " + input +
                             ": an input is never replaced; name another output");
        }
    }
}

std::string launch_key(const model::KernelRecord& k) {
    const auto& l = k.launch;
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "|%u,%u,%u|%u,%u,%u|%u", l.grid[0], l.grid[1], l.grid[2],
                  l.block[0], l.block[1], l.block[2], l.smem_bytes);
    return common::canonical_kernel_name(k.name) + buffer;
}

namespace {

using KeyOf = std::string (*)(const model::KernelRecord&);

std::string canonical_name(const model::KernelRecord& k) {
    return common::canonical_kernel_name(k.name);
}

// The qualified name (parameters left out: ncu may spell them in a way no rule maps) and the
// grid and block: the last resort, taken only where it leaves one kernel on each side.
std::string qualified_launch(const model::KernelRecord& k) {
    const auto& l = k.launch;
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "|%u,%u,%u|%u,%u,%u", l.grid[0], l.grid[1], l.grid[2],
                  l.block[0], l.block[1], l.block[2]);
    return common::canonical_qualified_name(k.name) + buffer;
}

// key -> indices not yet matched.
std::map<std::string, std::vector<std::size_t>>
unmatched_by(const std::vector<model::KernelRecord>& kernels, const std::vector<bool>& used,
             KeyOf key) {
    std::map<std::string, std::vector<std::size_t>> out;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (!used[i]) {
            out[key(kernels[i])].push_back(i);
        }
    }
    return out;
}

} // namespace

KernelMatch match_kernels(const std::vector<model::KernelRecord>& before,
                          const std::vector<model::KernelRecord>& after) {
    std::map<std::string, std::size_t> by_key;
    for (std::size_t i = 0; i < before.size(); ++i) {
        by_key.emplace(launch_key(before[i]), i);
    }
    std::vector<bool> used_b(before.size(), false), used_a(after.size(), false);
    std::vector<std::pair<std::size_t, std::size_t>> found(after.size(), {0, 0});
    for (std::size_t j = 0; j < after.size(); ++j) {
        const auto it = by_key.find(launch_key(after[j]));
        if (it != by_key.end() && !used_b[it->second]) {
            used_b[it->second] = used_a[j] = true;
            found[j] = {it->second, j};
        }
    }
    // A kernel whose launch configuration changed is still the same kernel: leftovers of one
    // name are paired in file order, so no name is ever both "only before" and "only after".
    const auto pair_leftovers = [&](KeyOf key, bool only_unique) {
        const auto names_b = unmatched_by(before, used_b, key);
        for (const auto& [name, indices] : unmatched_by(after, used_a, key)) {
            const auto it = names_b.find(name);
            if (it == names_b.end() ||
                (only_unique && (indices.size() != 1 || it->second.size() != 1))) {
                continue;
            }
            for (std::size_t n = 0; n < std::min(indices.size(), it->second.size()); ++n) {
                used_b[it->second[n]] = used_a[indices[n]] = true;
                found[indices[n]] = {it->second[n], indices[n]};
            }
        }
    };
    pair_leftovers(&canonical_name, false);
    pair_leftovers(&qualified_launch, true);
    KernelMatch match;
    for (std::size_t j = 0; j < after.size(); ++j) {
        if (used_a[j]) {
            match.pairs.push_back(found[j]);
        } else {
            match.only_after.push_back(j);
        }
    }
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (!used_b[i]) {
            match.only_before.push_back(i);
        }
    }
    return match;
}

std::map<std::string, std::string> name_labels(const std::vector<model::KernelRecord>& a,
                                               const std::vector<model::KernelRecord>& b,
                                               common::NameMode mode, std::size_t max_chars) {
    std::vector<common::KernelNames> names;
    std::map<std::string, std::size_t> seen;
    for (const auto* side : {&a, &b}) {
        for (const model::KernelRecord& k : *side) {
            if (seen.emplace(k.name, names.size()).second) {
                names.push_back({k.name, k.mangled, ""});
            }
        }
    }
    const std::vector<std::string> shown = common::display_names(names, mode, max_chars);
    std::map<std::string, std::string> out;
    for (const auto& [name, index] : seen) {
        out[name] = shown[index];
    }
    return out;
}

std::string format_number(std::optional<double> value, int digits) {
    if (!value || !std::isfinite(*value)) {
        return "-";
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, *value);
    return buffer;
}

std::string signed_percent(double share) {
    return common::string_printf("%+.1f%%", 100 * share);
}

std::string format_total_time(const model::KernelRecord& k) {
    return k.untimed ? "no time" : format_time(k.time_ns.total);
}

std::string format_launch(const model::LaunchConfig& l) {
    if (!model::launch_known(l)) {
        return "launch not in the files";
    }
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "grid [%u,%u,%u] block [%u,%u,%u]", l.grid[0], l.grid[1],
                  l.grid[2], l.block[0], l.block[1], l.block[2]);
    return buffer;
}

std::string exe_dir() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

std::string describe_gpu(const model::GpuInfo& gpu) {
    return common::printable((gpu.name.empty() ? std::string("unknown GPU") : gpu.name) + " (" +
                             (gpu.chip.empty() ? "?" : gpu.chip) + ", cc " +
                             (gpu.cc.empty() ? "?" : gpu.cc) + ")");
}

} // namespace irf::report
