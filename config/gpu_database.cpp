// SPDX-License-Identifier: Apache-2.0
// The shipped ceilings database: where it lives, how a detected GPU maps to an entry, and the
// fallback derivation from device properties.
#include "config/gpu_database.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "common/environment.hpp"
#include "common/nearest_name.hpp"
#include "config/ceilings_rules.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/env.hpp"
#include "config/text_list.hpp"

#ifndef IRF_SOURCE_GPUS_DIR
#define IRF_SOURCE_GPUS_DIR ""
#endif

namespace irf::config {
namespace fs = std::filesystem;
namespace {

constexpr const char* k_measured_suffix = ".measured";

bool is_measured(const std::string& key) {
    const std::string suffix = k_measured_suffix;
    return key.size() > suffix.size() &&
           key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) {
        return "";
    }
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

/// Path of <key>.yaml in the first directory that has it, or "".
std::string find_entry(const std::string& key, const std::vector<std::string>& dirs) {
    for (const auto& dir : dirs) {
        const auto path = fs::path(dir) / (key + ".yaml");
        std::error_code ec;
        if (fs::is_regular_file(path, ec)) {
            return path.string();
        }
    }
    return "";
}

/// Length of the longest alias (or the name) of `entry` contained in `device`, 0 when none.
std::size_t match_length(const GpuIdentity& entry, const std::string& device) {
    const auto dev = common::lowercase(device);
    std::size_t best = 0;
    auto names = entry.aliases;
    names.push_back(entry.name);
    for (const auto& alias : names) {
        if (!alias.empty() && dev.find(common::lowercase(alias)) != std::string::npos) {
            best = std::max(best, alias.size());
        }
    }
    return best;
}

} // namespace

bool looks_like_path(const std::string& item) {
    const auto ends = [&](const std::string& suffix) {
        return item.size() >= suffix.size() &&
               item.compare(item.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return item.find('/') != std::string::npos || ends(".yaml") || ends(".yml");
}

std::vector<std::string> gpus_dirs(const std::string& anchor_dir) {
    std::vector<std::string> candidates;
    if (const std::string extra = gpus_dir_setting(common::process_env); !extra.empty()) {
        for (const auto& part : split(extra, ':')) {
            candidates.push_back(part);
        }
    }
    if (!anchor_dir.empty()) {
        candidates.push_back((fs::path(anchor_dir) / ".." / "share" / "irf" / "gpus").string());
    }
    candidates.emplace_back(IRF_SOURCE_GPUS_DIR);
    std::vector<std::string> dirs;
    std::set<std::string> seen;
    for (const auto& dir : candidates) {
        std::error_code ec;
        if (dir.empty() || !fs::is_directory(dir, ec)) {
            continue;
        }
        const auto canonical = fs::weakly_canonical(dir, ec).string();
        if (seen.insert(ec ? dir : canonical).second) {
            dirs.push_back(ec ? dir : canonical);
        }
    }
    return dirs;
}

std::vector<std::string> list_shipped(const std::vector<std::string>& dirs) {
    std::set<std::string> keys;
    for (const auto& dir : dirs) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const auto& path = it->path();
            if (path.extension() == ".yaml" && it->is_regular_file(ec)) {
                keys.insert(path.stem().string());
            }
        }
    }
    return {keys.begin(), keys.end()};
}

Ceilings load_shipped(const std::string& key, const std::vector<std::string>& dirs) {
    const auto path = find_entry(key, dirs);
    if (path.empty()) {
        throw CeilingsError("gpus: " + key + ": no such shipped entry (known: " +
                            join(list_shipped(dirs), ", ") + ")");
    }
    Ceilings c = load_ceilings_file(path);
    c.source = "shipped:" + key + " (" + path + ")";
    return c;
}

std::optional<std::string> match_gpu(const std::string& name, const std::string& cc, int sms,
                                     const std::vector<std::string>& dirs) {
    std::optional<std::string> best_key;
    std::size_t best_len = 0;
    for (const auto& key : list_shipped(dirs)) {
        if (is_measured(key)) {
            continue;
        }
        try {
            const auto entry = load_shipped(key, dirs);
            // An imported export may not say the SM count (0) or the cc (""): any then matches.
            if ((!cc.empty() && entry.gpu.cc != cc) || (sms > 0 && entry.gpu.sms != sms)) {
                continue;
            }
            const auto len = match_length(entry.gpu, name);
            if (len > best_len) {
                best_len = len;
                best_key = key;
            }
        } catch (const CeilingsError&) {
            // A broken entry must not stop detection of the others; tests catch it in CI.
        }
    }
    if (best_key && !find_entry(*best_key + k_measured_suffix, dirs).empty()) {
        return *best_key + k_measured_suffix;
    }
    return best_key;
}

std::vector<std::string> family_entries(const std::string& device,
                                        const std::vector<std::string>& dirs) {
    const std::string dev = common::lowercase(device);
    std::vector<std::string> keys;
    std::size_t longest = 1; // a family of one letter names nothing
    for (const std::string& key : list_shipped(dirs)) {
        const std::string family = key.substr(0, key.find('-'));
        if (is_measured(key) || family.size() < longest || dev.find(family) == std::string::npos) {
            continue;
        }
        if (family.size() > longest) { // "a100" in "A100X" outranks "a10"
            keys.clear();
            longest = family.size();
        }
        keys.push_back(key);
    }
    return keys;
}

std::vector<Ceilings> resolve_targets(const std::string& spec, const std::vector<std::string>& dirs,
                                      const std::string& what) {
    std::vector<Ceilings> out;
    const auto text = trim(spec);
    if (text.empty() || text == "none") {
        return out;
    }
    if (text == "all") {
        for (const auto& key : list_shipped(dirs)) {
            if (!is_measured(key)) {
                out.push_back(load_shipped(key, dirs));
            }
        }
        return out;
    }
    // Each name loaded once: 10,000 copies of one name were 10,000 YAML loads at start and
    // 10,000 projections per kernel, a 58 s stall of the application (issue #39 item 11).
    std::set<std::string> seen;
    for (const auto& raw : split(text, ',')) {
        const auto item = trim(raw);
        if (item.empty() || !seen.insert(item).second) {
            continue;
        }
        if (seen.size() > k_max_targets) {
            throw CeilingsError(what + ": more than " + std::to_string(k_max_targets) +
                                " distinct targets");
        }
        out.push_back(load_named_ceilings(item, dirs, what, "all, none, "));
    }
    return out;
}

Ceilings load_named_ceilings(const std::string& item, const std::vector<std::string>& dirs,
                             const std::string& what, const std::string& also_known) {
    std::error_code ec;
    if (looks_like_path(item) || fs::is_regular_file(item, ec)) {
        return load_ceilings_file(item);
    }
    if (!find_entry(item, dirs).empty()) {
        return load_shipped(item, dirs);
    }
    const std::vector<std::string> known = list_shipped(dirs);
    throw CeilingsError(what + ": " + item + ": unknown target" +
                        common::did_you_mean(item, known) + " (known: " + also_known +
                        join(known, ", ") + ", or a YAML path)");
}

} // namespace irf::config
