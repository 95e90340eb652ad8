// SPDX-License-Identifier: Apache-2.0
// IRF_METRICS and IRF_TENSOR_TYPES: which counter groups a sample holds; IRF_REPLAY: how its
// passes run; IRF_TIMING and IRF_GRAPH_TIMING: which launches and graph nodes are timed;
// IRF_DISABLE and IRF_FAST_INTERCEPT: switches
// (config/env_metrics.hpp).
#include "config/env_metrics.hpp"

#include <charconv>

#include "common/whole_number.hpp"
#include "config/text_list.hpp"

namespace irf::config {
namespace {

/// Bounds of IRF_TIMING=sampled:K:N: N of 1 times every launch; past a million the estimate
/// rests on too few launches to be worth its error.
constexpr std::uint64_t k_max_timing_first = 1000000000;
constexpr std::uint64_t k_max_timing_every = 1000000;
/// IRF_GRAPH_TIMING=graphs:N: the node-by-node replays each graph's estimate rests on.
constexpr std::uint64_t k_max_graph_node_replays = 1000000;

/// `text` as a whole number in [min, max]; false with `problem` naming `what` otherwise.
bool parse_bounded(const std::string& text, std::uint64_t min, std::uint64_t max, const char* what,
                   std::uint64_t& out, std::string& problem) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || value < min || value > max) {
        problem = std::string(what) + " " +
                  common::whole_number_rule(static_cast<std::int64_t>(min), max);
        return false;
    }
    out = value;
    return true;
}

} // namespace

// IRF_METRICS: `default`, `all`, or a comma list of optional groups.
bool apply_metrics(Config& c, const std::string& v, std::string& problem) {
    bool pipe_mix = false, tensor_types = false;
    for (const std::string& item : split(v, ',')) {
        if (item == "pipe_mix") {
            pipe_mix = true;
        } else if (item == "tensor_types") {
            tensor_types = true;
        } else if (item == "all") {
            pipe_mix = tensor_types = true;
        } else if (item != "default") {
            problem = "expected default, all, or a comma list of pipe_mix, tensor_types";
            return false;
        }
    }
    c.metrics_pipe_mix = pipe_mix;
    c.metrics_tensor_types = tensor_types;
    return true;
}

std::string show_metrics(const Config& c) {
    if (c.metrics_pipe_mix && c.metrics_tensor_types) {
        return "all";
    }
    return c.metrics_pipe_mix ? "pipe_mix" : c.metrics_tensor_types ? "tensor_types" : "default";
}

// IRF_TENSOR_TYPES: `auto` or `off`.
bool apply_tensor_types(Config& c, const std::string& v, std::string& problem) {
    if (v != "auto" && v != "off") {
        problem = "expected auto or off";
        return false;
    }
    c.tensor_types_auto = v == "auto";
    return true;
}

std::string show_tensor_types(const Config& c) {
    return c.tensor_types_auto ? "auto" : "off";
}

// IRF_REPLAY: `auto`, `kernel` or `launches`.
bool apply_replay(Config& c, const std::string& v, std::string& problem) {
    if (v == "auto") {
        c.replay = ReplayMode::automatic;
    } else if (v == "kernel") {
        c.replay = ReplayMode::kernel;
    } else if (v == "launches") {
        c.replay = ReplayMode::launches;
    } else {
        problem = "expected auto, kernel or launches";
        return false;
    }
    return true;
}

std::string show_replay(const Config& c) {
    switch (c.replay) {
    case ReplayMode::kernel:
        return "kernel";
    case ReplayMode::launches:
        return "launches";
    default:
        return "auto";
    }
}

// IRF_TIMING: `all`, `sampled`, or `sampled:K:N`.
bool apply_timing(Config& c, const std::string& v, std::string& problem) {
    if (v == "all" || v == "sampled") {
        c.timing = v == "all" ? TimingMode::all : TimingMode::sampled;
        return true;
    }
    const std::vector<std::string> parts = split(v, ':');
    if (parts.size() != 3 || parts[0] != "sampled") {
        problem = "expected all, sampled or sampled:K:N (K launches timed first, then 1 in N)";
        return false;
    }
    std::uint64_t first = 0, every = 0;
    if (!parse_bounded(parts[1], 0, k_max_timing_first, "K", first, problem) ||
        !parse_bounded(parts[2], 1, k_max_timing_every, "N", every, problem)) {
        return false;
    }
    c.timing = TimingMode::sampled;
    c.timing_first = first;
    c.timing_every = every;
    return true;
}

std::string show_timing(const Config& c) {
    if (c.timing == TimingMode::all) {
        return "all";
    }
    return "sampled:" + std::to_string(c.timing_first) + ":" + std::to_string(c.timing_every);
}

// IRF_GRAPH_TIMING: `nodes`, `graphs`, or `graphs:N`.
bool apply_graph_timing(Config& c, const std::string& v, std::string& problem) {
    if (v == "nodes" || v == "graphs") {
        c.graph_timing = v == "nodes" ? GraphTiming::nodes : GraphTiming::graphs;
        return true;
    }
    const std::vector<std::string> parts = split(v, ':');
    std::uint64_t replays = 0;
    if (parts.size() != 2 || parts[0] != "graphs") {
        problem = "expected nodes, graphs or graphs:N (N replays of each graph timed by node)";
        return false;
    }
    if (!parse_bounded(parts[1], 1, k_max_graph_node_replays, "N", replays, problem)) {
        return false;
    }
    c.graph_timing = GraphTiming::graphs;
    c.graph_node_replays = static_cast<std::uint32_t>(replays);
    return true;
}

std::string show_graph_timing(const Config& c) {
    if (c.graph_timing == GraphTiming::nodes) {
        return "nodes";
    }
    return "graphs:" + std::to_string(c.graph_node_replays);
}

namespace {

bool parse_switch(const std::string& v, bool& into, std::string& problem) {
    if (v == "1" || v == "true" || v == "yes" || v == "on") {
        into = true;
        return true;
    }
    if (v == "0" || v == "false" || v == "no" || v == "off") {
        into = false;
        return true;
    }
    problem = "expected 1 or 0";
    return false;
}

} // namespace

bool apply_disable(Config& c, const std::string& v, std::string& problem) {
    return parse_switch(v, c.disable, problem);
}

std::string show_disable(const Config& c) {
    return c.disable ? "1" : "0";
}

bool apply_fast_intercept(Config& c, const std::string& v, std::string& problem) {
    return parse_switch(v, c.fast_intercept, problem);
}

std::string show_fast_intercept(const Config& c) {
    return c.fast_intercept ? "1" : "0";
}

} // namespace irf::config
