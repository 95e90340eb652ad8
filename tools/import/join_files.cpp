// SPDX-License-Identifier: Apache-2.0
// Joining files kernel by kernel (docs/import.md, "Several files").
#include "tools/import/join_files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "common/kernel_identity.hpp"
#include "common/text_safety.hpp"
#include "model/profile/version.hpp"
#include "tools/import/import_error.hpp"

namespace irf::import {
namespace {

// A kernel while files are joined: counters are per launch until the end.
struct Joined {
    ImportedKernel kernel;
    /// Which file (index) gave each counter: the first to give counters, else the exception
    /// here; no path per kernel and counter (a million kernels, issue 52 item 4).
    std::size_t counters_from = 0;
    std::map<std::string, std::size_t> counters_elsewhere;
    std::vector<std::size_t> profiled_in; ///< files (indices) that gave it counters
};

std::string per_launch(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

bool agree(double a, double b) {
    const double scale = std::max(std::fabs(a), std::fabs(b));
    return scale == 0 || std::fabs(a - b) <= k_agreement * scale;
}

// Measurements of a run rather than of the kernel: two runs legitimately differ.
bool is_run_measurement(const std::string& counter) {
    return counter == "time_ns" || counter == "clock_hz";
}

void add_counters(Joined& j, const ImportedKernel& k, const std::vector<ImportedFile>& files,
                  std::size_t file) {
    if (k.profiled_launches == 0) {
        return;
    }
    if (j.kernel.counters.empty()) {
        j.counters_from = file;
    }
    const double n = static_cast<double>(k.profiled_launches);
    for (const auto& [name, sum] : k.counters) {
        const double mean = name == "clock_hz" ? sum : sum / n;
        const auto it = j.kernel.counters.find(name);
        if (it == j.kernel.counters.end()) {
            j.kernel.counters[name] = mean;
            if (file != j.counters_from) {
                j.counters_elsewhere[name] = file;
            }
            continue;
        }
        if (!is_run_measurement(name) && !agree(it->second, mean)) {
            const auto other = j.counters_elsewhere.find(name);
            const std::size_t gave =
                other == j.counters_elsewhere.end() ? j.counters_from : other->second;
            throw ImportError(files[file].path, k.line, 0,
                              "kernel " + common::printable(k.name) + ": " + name + " is " +
                                  per_launch(mean) + " per launch here and " +
                                  per_launch(it->second) + " in " + files[gave].path +
                                  ": the files disagree (not runs of one application and input?)");
        }
    }
    j.kernel.profiled_launches = std::max(j.kernel.profiled_launches, k.profiled_launches);
}

void merge_into(Joined& j, const ImportedKernel& k, const std::vector<ImportedFile>& files,
                std::size_t file) {
    if (!j.kernel.launch && k.launch) {
        j.kernel.launch = k.launch;
    }
    j.kernel.launches = std::max(j.kernel.launches, k.launches);
    if (!j.kernel.time_ns && k.time_ns) {
        j.kernel.time_ns = k.time_ns;
    }
    j.kernel.notes.insert(k.notes.begin(), k.notes.end());
    add_counters(j, k, files, file);
}

// The joined kernels by kernel_key and by canonical name: a kernel is looked up among those of
// its own name, where a scan of every joined kernel made the join quadratic (a million
// kernels never finished; issue 52 item 4).
struct JoinIndex {
    std::unordered_map<std::string, std::size_t> by_key;
    std::unordered_map<std::string, std::vector<std::size_t>> by_name;

    void add(std::size_t i, const std::string& key, const std::string& name) {
        by_key.emplace(key, i);
        by_name[name].push_back(i);
    }

    // A kernel joined without a launch took one from a later file: its key changed.
    void rekey(const std::string& old_key, const std::vector<Joined>& joined, std::size_t i) {
        const ImportedKernel& k = joined[i].kernel;
        const std::string key = kernel_key(k.name, k.launch);
        if (key != old_key) {
            by_key.erase(old_key);
            by_key.emplace(key, i);
        }
    }
};

// The joined kernel `k` belongs to: same name and launch, else the one of that name when
// either side has no launch and only one kernel has the name; nullopt for a new kernel.
// `key` and `name` are k's kernel_key and canonical name.
std::optional<std::size_t> find_match(const std::vector<Joined>& joined, const JoinIndex& index,
                                      const ImportedKernel& k, const std::string& key,
                                      const std::string& name, const std::string& file) {
    if (const auto exact = index.by_key.find(key); exact != index.by_key.end()) {
        return exact->second;
    }
    const auto named = index.by_name.find(name);
    if (named == index.by_name.end()) {
        return std::nullopt;
    }
    std::vector<std::size_t> same_name;
    for (const std::size_t i : named->second) {
        if (!joined[i].kernel.launch || !k.launch) {
            same_name.push_back(i);
        }
    }
    if (same_name.size() > 1) {
        throw ImportError(file, k.line, 0,
                          "kernel " + common::printable(k.name) + " ran with " +
                              std::to_string(same_name.size()) +
                              " launch configurations and one file does not say which: import "
                              "files that give Grid and Block sizes");
    }
    return same_name.empty() ? std::nullopt : std::optional<std::size_t>(same_name.front());
}

// The global wall's access width needs the bytes the threads requested: when the files have
// global ld/st but not those bytes, say which names would have given them (issue #33 item 5).
void note_missing_requested_bytes(model::KernelRecord& r) {
    const auto& c = r.counters;
    const bool has_global = c.count("inst_global_ld") > 0 || c.count("inst_global_st") > 0;
    if (has_global && (c.count("bytes_global_ld") == 0 || c.count("bytes_global_st") == 0)) {
        r.notes.push_back(
            "import: no requested bytes for global loads and stores in the files: the global "
            "wall assumes 4-byte words (collect smsp__sass_data_bytes_mem_global_op_ld/st.sum "
            "or smsp__sass_average_data_bytes_per_sector_mem_global_op_ld/st.pct with the "
            "sectors; nvprof: gld/gst_efficiency with gld/gst_transactions)");
    }
}

model::KernelRecord to_record(const Joined& j) {
    const ImportedKernel& k = j.kernel;
    model::KernelRecord r;
    r.name = k.name;
    r.launches = std::max<std::uint64_t>(k.launches, k.profiled_launches);
    r.profiled_launches = k.profiled_launches;
    const double n = static_cast<double>(k.profiled_launches);
    for (const auto& [name, mean] : k.counters) {
        r.counters[name] = name == "clock_hz" ? mean : mean * n;
    }
    if (k.launch) {
        r.launch = *k.launch;
    } else {
        r.launch.grid = {0, 0, 0}; // unknown: an empty grid counts no waves
        r.notes.push_back("import: launch configuration not in the files: waves not counted");
    }
    if (k.time_ns) {
        r.time_ns = *k.time_ns;
        // The IRM workflow times a separate run (nvprof --print-gpu-summary): the profiled
        // launches then count at that run's mean duration.
        if (k.profiled_launches > 0 && r.counters.count("time_ns") == 0) {
            r.counters["time_ns"] = k.time_ns->mean * n;
            r.notes.push_back("import: time_ns is the timed launches' mean x profiled launches");
        }
    } else {
        r.untimed = true;
        r.notes.push_back("import: no duration in the files: time, GIPS and bound unknown");
    }
    r.notes.insert(r.notes.end(), k.notes.begin(), k.notes.end());
    note_missing_requested_bytes(r);
    return r;
}

std::string tools_of(const std::vector<ImportedFile>& files) {
    std::vector<std::string> tools;
    for (const ImportedFile& f : files) {
        if (std::find(tools.begin(), tools.end(), f.tool) == tools.end()) {
            tools.push_back(f.tool);
        }
    }
    std::string out;
    for (const std::string& t : tools) {
        out += (out.empty() ? "" : "+") + t;
    }
    return out;
}

// One warning per file whose kernels have counters but, after the join, no duration: they are
// never shown at 0 ns (docs/import.md, "Time").
void warn_untimed(model::Profile& p, const std::vector<ImportedFile>& files,
                  const std::vector<Joined>& joined) {
    std::vector<std::size_t> untimed(files.size(), 0), profiled(files.size(), 0);
    for (const Joined& j : joined) {
        for (const std::size_t f : j.profiled_in) {
            ++profiled[f];
            untimed[f] += j.kernel.time_ns ? 0 : 1;
        }
    }
    for (std::size_t f = 0; f < files.size(); ++f) {
        if (untimed[f] > 0) {
            p.warnings.push_back(
                "import: " + common::printable(files[f].path) + ": " + std::to_string(untimed[f]) +
                " of " + std::to_string(profiled[f]) +
                " kernels with counters have no duration in the files (none of "
                "gpu__time_duration, gpu__time_active, {sm,smsp,gpc}__cycles_elapsed with "
                "their .avg.per_second, nvprof's trace or summary): their time, GIPS and bound "
                "are unknown");
        }
    }
}

} // namespace

model::Profile join_files(const std::vector<ImportedFile>& files) {
    std::vector<Joined> joined;
    JoinIndex by;
    model::Profile p;
    p.tool = "irf-report import";
    p.version = model::version();
    model::ImportInfo info;
    info.tool = tools_of(files);
    for (std::size_t index = 0; index < files.size(); ++index) {
        const ImportedFile& f = files[index];
        info.files.push_back(f.path);
        info.formats.push_back(f.format);
        if (info.version.empty()) {
            info.version = f.version;
        }
        for (const ImportedKernel& k : f.kernels) {
            // Canonical names are costly (common/kernel_identity): once per kernel.
            const std::string key = kernel_key(k.name, k.launch);
            const std::string name = common::canonical_kernel_name(k.name);
            const auto match = find_match(joined, by, k, key, name, f.path);
            if (!match) {
                Joined j;
                j.kernel = k;
                j.kernel.counters.clear();
                j.kernel.profiled_launches = 0;
                add_counters(j, k, files, index);
                joined.push_back(std::move(j));
                by.add(joined.size() - 1, key, name);
            } else {
                const ImportedKernel& was = joined[*match].kernel;
                const std::string old_key = was.launch ? "" : kernel_key(was.name, was.launch);
                merge_into(joined[*match], k, files, index);
                if (!old_key.empty()) {
                    by.rekey(old_key, joined, *match);
                }
            }
            if (k.profiled_launches > 0) {
                joined[match.value_or(joined.size() - 1)].profiled_in.push_back(index);
            }
        }
    }
    by = JoinIndex{};
    warn_untimed(p, files, joined);
    // Each joined kernel is freed once it is a record: the two are never all held at once.
    p.kernels.reserve(joined.size());
    for (Joined& j : joined) {
        p.kernels.push_back(to_record(j));
        j = Joined{};
        p.coverage.launches += p.kernels.back().launches;
        p.coverage.profiled_launches += p.kernels.back().profiled_launches;
    }
    p.coverage.kernels = p.kernels.size();
    for (const ImportedFile& f : files) {
        for (const std::string& message : f.profiler_messages) {
            p.warnings.push_back("import: " + common::printable(f.path) + ": " + message);
        }
    }
    p.imported = std::move(info);
    return p;
}

} // namespace irf::import
