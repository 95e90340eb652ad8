// SPDX-License-Identifier: Apache-2.0
// Parsing of the fake backend's JSON script.
#include "intercept/fake/fake_script.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace irf::intercept::fake {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
    throw ScriptError(where + ": " + what);
}

std::uint64_t get_uint(const json& j, const std::string& where) {
    if (!j.is_number_unsigned()) {
        fail(where, "expected a non-negative integer");
    }
    return j.get<std::uint64_t>();
}

std::uint32_t get_u32(const json& j, const std::string& where) {
    const std::uint64_t v = get_uint(j, where);
    if (v > UINT32_MAX) {
        fail(where, "too large");
    }
    return static_cast<std::uint32_t>(v);
}

double get_number(const json& j, const std::string& where) {
    if (!j.is_number() || j.get<double>() < 0) {
        fail(where, "expected a non-negative number");
    }
    return j.get<double>();
}

std::array<std::uint32_t, 3> get_dim3(const json& j, const std::string& where) {
    if (!j.is_array() || j.size() != 3) {
        fail(where, "expected an array of 3 positive integers");
    }
    std::array<std::uint32_t, 3> out{};
    for (std::size_t i = 0; i < 3; ++i) {
        out[i] = get_u32(j[i], where + "[" + std::to_string(i) + "]");
        if (out[i] == 0) {
            fail(where, "expected an array of 3 positive integers");
        }
    }
    return out;
}

model::GpuInfo parse_gpu(const json& j) {
    model::GpuInfo g;
    if (!j.is_object()) {
        fail("gpu", "expected an object");
    }
    g.name = j.value("name", "");
    g.chip = j.value("chip", "");
    g.cc = j.value("cc", "");
    g.sms = static_cast<int>(j.contains("sms") ? get_u32(j["sms"], "gpu.sms") : 0);
    g.clock_hz = j.contains("clock_hz") ? get_number(j["clock_hz"], "gpu.clock_hz") : 0;
    g.l2_bytes = j.contains("l2_bytes") ? get_uint(j["l2_bytes"], "gpu.l2_bytes") : 0;
    g.memory_bytes =
        j.contains("memory_bytes") ? get_uint(j["memory_bytes"], "gpu.memory_bytes") : 0;
    g.driver = j.value("driver", "");
    return g;
}

void parse_durations(const json& j, const std::string& where, std::vector<double>& out) {
    if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) {
            out.push_back(get_number(j[i], where + "[" + std::to_string(i) + "]"));
        }
        if (out.empty()) {
            fail(where, "empty list");
        }
    } else {
        out.push_back(get_number(j, where));
    }
}

/// Fails on the first key of object `j` not in `keys`.
template <std::size_t N>
void check_keys(const json& j, const std::string& where, const char* const (&keys)[N]) {
    if (!j.is_object()) {
        fail(where, "expected an object");
    }
    for (const auto& item : j.items()) {
        if (std::find(std::begin(keys), std::end(keys), item.key()) == std::end(keys)) {
            fail(where + "." + item.key(), "unknown key");
        }
    }
}

/// What a launch and a graph node both give: the kernel, its launch configuration, durations.
ScriptNode parse_kernel(const json& j, const std::string& where) {
    ScriptNode k;
    if (!j.contains("kernel") || !j["kernel"].is_string() ||
        j["kernel"].get<std::string>().empty()) {
        fail(where + ".kernel", "expected a non-empty string");
    }
    k.kernel = j["kernel"].get<std::string>();
    k.function = j.contains("function") ? get_uint(j["function"], where + ".function") : 0;
    if (j.contains("grid")) {
        k.launch.grid = get_dim3(j["grid"], where + ".grid");
    }
    if (j.contains("block")) {
        k.launch.block = get_dim3(j["block"], where + ".block");
    }
    k.launch.smem_bytes = j.contains("smem") ? get_u32(j["smem"], where + ".smem") : 0;
    k.launch.regs = j.contains("regs") ? get_u32(j["regs"], where + ".regs") : 0;
    if (!j.contains("duration_ns")) {
        fail(where + ".duration_ns", "missing");
    }
    parse_durations(j["duration_ns"], where + ".duration_ns", k.duration_ns);
    return k;
}

/// A graph launch's kernel nodes and exec handle; the launch's own kernel keys are refused.
void parse_graph(const json& j, const std::string& where, ScriptLaunch& l) {
    static const char* const k_node_keys[] = {"kernel", "function", "grid",       "block",
                                              "smem",   "regs",     "duration_ns"};
    static const char* const k_not_here[] = {
        "kernel",      "function", "grid",  "block",           "smem",        "regs",
        "duration_ns", "counters", "graph", "tensor_counters", "refuse_pass", "ranges"};
    for (const char* key : k_not_here) {
        if (j.contains(key)) {
            fail(where + "." + key, "not with graph_nodes (each node names its kernel; nodes "
                                    "are timed only)");
        }
    }
    const json& nodes = j["graph_nodes"];
    if (!nodes.is_array() || nodes.empty()) {
        fail(where + ".graph_nodes", "expected a non-empty array of kernel nodes");
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string node_where = where + ".graph_nodes[" + std::to_string(i) + "]";
        check_keys(nodes[i], node_where, k_node_keys);
        l.graph_nodes.push_back(parse_kernel(nodes[i], node_where));
    }
    l.graph_exec = j.contains("graph_exec") ? get_uint(j["graph_exec"], where + ".graph_exec") : 0;
}

/// The launching thread's NVTX push/pop stack, outermost first.
void parse_nvtx(const json& j, const std::string& where, ScriptLaunch& l) {
    if (!j.is_array()) {
        fail(where, "expected an array of range names");
    }
    for (const json& name : j) {
        if (!name.is_string() || name.get<std::string>().empty()) {
            fail(where, "expected non-empty strings");
        }
        l.nvtx.push_back(name.get<std::string>());
    }
}

void parse_counters(const json& j, const char* key, const std::string& where,
                    model::Counters& out) {
    if (!j.contains(key)) {
        return;
    }
    if (!j[key].is_object()) {
        fail(where + "." + key, "expected an object of numbers");
    }
    for (const auto& c : j[key].items()) {
        out[c.key()] = get_number(c.value(), where + "." + key + "." + c.key());
    }
}

ScriptLaunch parse_launch(const json& j, const std::string& where) {
    static const char* const k_keys[] = {
        "kernel",      "function", "grid",        "block",     "smem",
        "regs",        "device",   "thread",      "repeat",    "duration_ns",
        "counters",    "graph",    "nvtx",        "profiler",  "tensor_counters",
        "refuse_pass", "ranges",   "graph_nodes", "graph_exec"};
    check_keys(j, where, k_keys);
    ScriptLaunch l;
    if (j.contains("graph_nodes")) {
        parse_graph(j, where, l);
    } else if (j.contains("graph_exec")) {
        fail(where + ".graph_exec", "only with graph_nodes");
    } else {
        ScriptNode k = parse_kernel(j, where);
        l.kernel = std::move(k.kernel);
        l.function = k.function;
        l.launch = k.launch;
        l.duration_ns = std::move(k.duration_ns);
    }
    l.device = j.contains("device") ? get_u32(j["device"], where + ".device") : 0;
    l.thread = static_cast<int>(j.contains("thread") ? get_u32(j["thread"], where + ".thread") : 0);
    l.repeat = j.contains("repeat") ? get_uint(j["repeat"], where + ".repeat") : 1;
    parse_counters(j, "counters", where, l.counters);
    parse_counters(j, "tensor_counters", where, l.tensor_counters);
    if (j.contains("graph")) {
        if (!j["graph"].is_boolean()) {
            fail(where + ".graph", "expected true or false");
        }
        l.graph = j["graph"].get<bool>();
    }
    if (j.contains("nvtx")) {
        parse_nvtx(j["nvtx"], where + ".nvtx", l);
    }
    if (j.contains("profiler")) {
        const json& p = j["profiler"];
        if (!p.is_string() || (p.get<std::string>() != "start" && p.get<std::string>() != "stop")) {
            fail(where + ".profiler", "expected \"start\" or \"stop\"");
        }
        l.profiler = p.get<std::string>();
    }
    if (j.contains("refuse_pass")) {
        if (!j["refuse_pass"].is_boolean()) {
            fail(where + ".refuse_pass", "expected true or false");
        }
        l.refuse_pass = j["refuse_pass"].get<bool>();
    }
    l.ranges = j.contains("ranges") ? get_u32(j["ranges"], where + ".ranges") : 1;
    return l;
}

ActivityDelivery parse_activity(const json& j) {
    static const char* const k_keys[] = {"buffer_records", "drop_every", "early_every"};
    check_keys(j, "activity", k_keys); // "activity: expected an object" when it is none
    ActivityDelivery a;
    a.buffer_records =
        j.contains("buffer_records") ? get_uint(j["buffer_records"], "activity.buffer_records") : 0;
    a.drop_every = j.contains("drop_every") ? get_uint(j["drop_every"], "activity.drop_every") : 0;
    a.early_every =
        j.contains("early_every") ? get_uint(j["early_every"], "activity.early_every") : 0;
    return a;
}

} // namespace

Script parse_script(const std::string& text) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        throw ScriptError(std::string("not valid JSON (byte ") + std::to_string(e.byte) + ")");
    }
    if (!doc.is_object()) {
        fail("(document)", "expected an object");
    }
    Script s;
    if (doc.contains("gpu")) {
        s.gpu = parse_gpu(doc["gpu"]);
    }
    if (doc.contains("passes")) {
        s.passes = static_cast<int>(get_u32(doc["passes"], "passes"));
    }
    if (doc.contains("warnings")) {
        for (const auto& w : doc["warnings"]) {
            if (!w.is_string()) {
                fail("warnings", "expected strings");
            }
            s.warnings.push_back(w.get<std::string>());
        }
    }
    if (doc.contains("loop")) {
        if (!doc["loop"].is_boolean()) {
            fail("loop", "expected true or false");
        }
        s.loop = doc["loop"].get<bool>();
    }
    if (doc.contains("flush_hangs")) {
        if (!doc["flush_hangs"].is_boolean()) {
            fail("flush_hangs", "expected true or false");
        }
        s.flush_hangs = doc["flush_hangs"].get<bool>();
    }
    if (doc.contains("recur_bound")) {
        s.recur_bound = get_uint(doc["recur_bound"], "recur_bound");
    }
    if (doc.contains("activity")) {
        s.activity = parse_activity(doc["activity"]);
    }
    if (!doc.contains("launches") || !doc["launches"].is_array()) {
        fail("launches", "expected an array");
    }
    for (std::size_t i = 0; i < doc["launches"].size(); ++i) {
        s.launches.push_back(
            parse_launch(doc["launches"][i], "launches[" + std::to_string(i) + "]"));
    }
    return s;
}

} // namespace irf::intercept::fake
