// SPDX-License-Identifier: Apache-2.0
// IRF_METRICS and IRF_TENSOR_TYPES: which counter groups a sample holds; IRF_REPLAY: how its
// passes run (config/env_metrics.hpp).
#include "config/env_metrics.hpp"

#include "config/text_list.hpp"

namespace irf::config {

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

} // namespace irf::config
