// SPDX-License-Identifier: Apache-2.0
// JSON reader and writer for irf.profile/v1 (keys: docs/output-schema.md).
#include "model/profile/profile_json.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "common/file_io.hpp"
#include "model/profile/analysis_json.hpp"
#include "model/profile/json_reader.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/profile/profile_json_stream.hpp"
#include "model/profile/regions_json.hpp"
#include "model/profile/sampling_json.hpp"

namespace irf::model {

using nlohmann::json;

namespace {

const char* const s_schema = "irf.profile/v1";

json kernel_to_json(const KernelRecord& k) {
    json counters = json::object();
    for (const auto& [name, value] : k.counters) {
        if (std::isfinite(value)) {
            counters[name] = value;
        }
    }
    json out{{"name", k.name},
             {"mangled", k.mangled},
             {"call_site", k.call_site},
             {"launch",
              {{"grid", k.launch.grid},
               {"block", k.launch.block},
               {"smem", k.launch.smem_bytes},
               {"regs", k.launch.regs}}},
             {"launches", k.launches},
             {"profiled_launches", k.profiled_launches},
             {"time_ns",
              k.untimed
                  ? json{{"total", nullptr}, {"min", nullptr}, {"mean", nullptr}, {"max", nullptr}}
                  : json{{"total", finite_or_null(k.time_ns.total)},
                         {"min", finite_or_null(k.time_ns.min)},
                         {"mean", finite_or_null(k.time_ns.mean)},
                         {"max", finite_or_null(k.time_ns.max)}}},
             {"counters", counters},
             {"notes", k.notes}};
    add_sampling_fields(k, out);
    if (k.analysis) {
        out["analysis"] = analysis_to_json(*k.analysis);
    }
    if (!k.regions.empty()) { // absent when the application used no NVTX ranges
        out["regions"] = kernel_regions_to_json(k.regions);
    }
    if (k.ranks) {
        out["ranks"] = rank_stats_to_json(*k.ranks);
    }
    return out;
}

void gpu_from_json(const JsonNode& g, GpuInfo& gpu) {
    g.expect_object();
    gpu.name = g.str("name");
    gpu.chip = g.str("chip");
    gpu.cc = g.str("cc");
    gpu.sms = static_cast<int>(g.integer("sms"));
    gpu.clock_hz = g.num("clock_hz");
    gpu.l2_bytes = g.count("l2_bytes");
    gpu.memory_bytes = g.count("memory_bytes");
    gpu.driver = g.str("driver");
    if (g.has("sms_active")) {
        gpu.sms_active = static_cast<int>(g.integer("sms_active"));
    }
}

JobInfo job_from_json(const JsonNode& n) {
    n.expect_object();
    JobInfo job;
    if (n.has("ranks")) {
        const JsonNode ranks = n.at("ranks");
        ranks.expect_array();
        for (std::size_t i = 0; i < ranks.value().size(); ++i) {
            job.ranks.push_back(
                static_cast<int>(std::min<std::uint64_t>(ranks.at(i).as_count(), INT_MAX)));
        }
    }
    if (n.has("files")) {
        job.files = n.at("files").as_strings();
    }
    if (n.has("hosts")) {
        job.hosts = n.at("hosts").as_strings();
    }
    return job;
}

ImportInfo import_from_json(const JsonNode& n) {
    n.expect_object();
    ImportInfo info;
    info.tool = n.str("tool");
    info.version = n.str("version");
    if (n.has("files")) {
        info.files = n.at("files").as_strings();
    }
    if (n.has("formats")) {
        info.formats = n.at("formats").as_strings();
    }
    return info;
}

void header_from_json(const JsonNode& root, Profile& p) {
    p.tool = root.str("tool", "irf");
    p.version = root.str("version");
    p.app = root.str("app");
    if (root.has("argv")) {
        p.argv = root.at("argv").as_strings();
    }
    p.pid = root.integer("pid");
    if (root.has("rank")) {
        p.rank = static_cast<int>(root.integer("rank"));
    }
    p.host = root.str("host");
    p.start_time = root.str("start_time");
    p.end_time = root.str("end_time");
    if (root.has("config")) {
        const JsonNode c = root.at("config");
        c.expect_object();
        for (auto it = c.value().begin(); it != c.value().end(); ++it) {
            p.config[it.key()] = c.at(it.key()).as_str();
        }
    }
}

} // namespace

namespace {

// Every top-level key but `kernels`, which the two writers below add each in its own way.
json profile_header_json(const Profile& p) {
    json out{{"schema", s_schema},
             {"tool", p.tool},
             {"version", p.version},
             {"app", p.app},
             {"argv", p.argv},
             {"pid", p.pid},
             {"host", p.host},
             {"start_time", p.start_time},
             {"end_time", p.end_time},
             {"config", p.config},
             {"gpu",
              {{"name", p.gpu.name},
               {"chip", p.gpu.chip},
               {"cc", p.gpu.cc},
               {"sms", p.gpu.sms},
               {"clock_hz", finite_or_null(p.gpu.clock_hz)},
               {"l2_bytes", p.gpu.l2_bytes},
               {"memory_bytes", p.gpu.memory_bytes},
               {"driver", p.gpu.driver}}},
             {"coverage",
              {{"launches", p.coverage.launches},
               {"kernels", p.coverage.kernels},
               {"profiled_launches", p.coverage.profiled_launches},
               {"passes", p.coverage.passes}}},
             {"warnings", p.warnings}};
    if (p.gpu.sms_active) {
        out["gpu"]["sms_active"] = *p.gpu.sms_active;
    }
    if (p.rank) {
        out["rank"] = *p.rank;
    }
    // Written only when something happened, so clean profiles keep their shape.
    if (!p.coverage.discarded_samples.empty()) {
        out["coverage"]["discarded_samples"] = p.coverage.discarded_samples;
    }
    if (p.coverage.invalid_durations > 0) {
        out["coverage"]["invalid_durations"] = p.coverage.invalid_durations;
    }
    if (p.coverage.lost_durations > 0) {
        out["coverage"]["lost_durations"] = p.coverage.lost_durations;
    }
    if (const SamplePhases& s = p.coverage.sample_phases; s.samples > 0) {
        out["coverage"]["sample_phases"] = {{"samples", s.samples},
                                            {"setup_ms", s.setup_ms},
                                            {"launch_ms", s.launch_ms},
                                            {"decode_ms", s.decode_ms}};
    }
    if (p.ceilings) {
        out["ceilings_used"] = ceilings_used_to_json(*p.ceilings);
    }
    if (!p.regions.empty()) {
        out["regions"] = regions_to_json(p.regions);
    }
    if (p.job) {
        out["job"] = {{"ranks", p.job->ranks}, {"files", p.job->files}, {"hosts", p.job->hosts}};
    }
    if (p.imported) {
        out["import"] = {{"tool", p.imported->tool},
                         {"version", p.imported->version},
                         {"files", p.imported->files},
                         {"formats", p.imported->formats}};
    }
    return out;
}

} // namespace

json kernel_entry(const Profile& p, std::size_t i, const std::vector<std::string>& labels) {
    json out = kernel_to_json(p.kernels[i]);
    // The name every tool shows (irf-plot reads it, so figures and tables agree); derived,
    // never read back.
    out["display_name"] = labels[i];
    return out;
}

json profile_to_json(const Profile& p) {
    json out = profile_header_json(p);
    out["kernels"] = json::array();
    const std::vector<std::string> labels = kernel_labels(p.kernels);
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        out["kernels"].push_back(kernel_entry(p, i, labels));
    }
    return out;
}

Profile profile_from_json(const json& document) {
    return profile_from_parts(document, [&document](Profile& p) {
        const JsonNode kernels = JsonNode(document, "").at("kernels");
        kernels.expect_array();
        for (std::size_t i = 0; i < kernels.value().size(); ++i) {
            p.kernels.push_back(kernel_from_json(kernels.at(i)));
        }
    });
}

Profile profile_from_parts(const json& document, const std::function<void(Profile&)>& kernels) {
    const JsonNode root(document, "");
    root.expect_object();
    if (!root.has("schema")) {
        throw FormatError(std::string("schema: missing (expected \"") + s_schema + "\")");
    }
    const std::string schema = root.at("schema").as_str();
    if (schema != s_schema) {
        throw FormatError("schema: \"" + schema + "\" is not \"" + s_schema + "\"");
    }
    Profile p;
    header_from_json(root, p);
    if (root.has("gpu")) {
        gpu_from_json(root.at("gpu"), p.gpu);
    }
    if (root.has("ceilings_used")) {
        p.ceilings = ceilings_used_from_json(root.at("ceilings_used"));
    }
    if (root.has("coverage")) {
        const JsonNode c = root.at("coverage");
        c.expect_object();
        p.coverage = Coverage{c.count("launches"),
                              c.count("kernels"),
                              c.count("profiled_launches"),
                              static_cast<int>(c.integer("passes")),
                              {},
                              c.count("invalid_durations"),
                              c.count("lost_durations"),
                              {}};
        if (c.has("sample_phases")) {
            const JsonNode s = c.at("sample_phases");
            s.expect_object();
            p.coverage.sample_phases = {s.count("samples"), s.num("setup_ms"), s.num("launch_ms"),
                                        s.num("decode_ms")};
        }
        if (c.has("discarded_samples")) {
            const JsonNode d = c.at("discarded_samples");
            d.expect_object();
            for (const auto& item : d.value().items()) {
                p.coverage.discarded_samples[item.key()] = d.count(item.key());
            }
        }
    }
    kernels(p);
    if (root.has("warnings")) {
        p.warnings = root.at("warnings").as_strings();
    }
    if (root.has("regions")) {
        p.regions = regions_from_json(root.at("regions"));
    }
    if (root.has("job")) {
        p.job = job_from_json(root.at("job"));
    }
    if (root.has("import")) {
        p.imported = import_from_json(root.at("import"));
    }
    return p;
}

std::string dump_json(const nlohmann::json& document) {
    // Names, argv, environment values and file names are bytes, not always UTF-8; nlohmann's
    // strict dump throws on them and the whole profile would be lost. Replace each invalid byte
    // with U+FFFD instead (the rule of common::valid_utf8).
    return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void dump_profile_to(const Profile& profile, const std::function<void(std::string_view)>& emit) {
    // The text of profile_to_json, byte for byte, made one kernel at a time: a document of
    // every kernel at once took about 30 times the text's size (docs/performance.md, "Tools on
    // 100,000 kernels").
    json header = profile_header_json(profile);
    header["kernels"] = json::array();
    const std::string outer = dump_json(header);
    const std::string empty = "\n  \"kernels\": [],\n"; // sorted keys: never the last one
    const std::size_t at = outer.find(empty);
    if (profile.kernels.empty() || at == std::string::npos) {
        emit(outer);
        return;
    }
    const std::vector<std::string> labels = kernel_labels(profile.kernels);
    emit(std::string_view(outer).substr(0, at));
    emit("\n  \"kernels\": [");
    std::string part;
    for (std::size_t i = 0; i < profile.kernels.size(); ++i) {
        std::string text = dump_json(kernel_entry(profile, i, labels));
        text.pop_back(); // dump_json's final newline
        part = i == 0 ? "\n    " : ",\n    ";
        // Two levels deeper than dumped alone: four more spaces after every line break.
        for (const char c : text) {
            part += c;
            if (c == '\n') {
                part += "    ";
            }
        }
        emit(part);
    }
    emit("\n  ],\n");
    emit(std::string_view(outer).substr(at + empty.size()));
}

std::string write_profile_file(const std::string& path, const Profile& profile,
                               void (*on_temporary)(const char*)) noexcept {
    return common::write_file_atomic_streamed(
        path, [&profile](const common::EmitPart& emit) { dump_profile_to(profile, emit); },
        on_temporary);
}

std::string dump_profile(const Profile& profile) {
    std::string out;
    dump_profile_to(profile, [&out](std::string_view part) { out.append(part); });
    return out;
}

} // namespace irf::model
