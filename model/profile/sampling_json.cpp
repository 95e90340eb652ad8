// SPDX-License-Identifier: Apache-2.0
// A kernel's optional timing and sampling fields (model/profile/sampling_json.hpp).
#include "model/profile/sampling_json.hpp"

#include <algorithm>

#include "model/profile/analysis_json.hpp"
#include "model/profile/duration_clusters.hpp"

namespace irf::model {

/// Optional fields of a kernel's timing and sampling (docs/output-schema.md): absent when they
/// say nothing, so profiles without them read as before.
void add_sampling_fields(const KernelRecord& k, nlohmann::json& out) {
    if (k.first_launch_ns) {
        out["time_ns"]["first"] = finite_or_null(*k.first_launch_ns);
    }
    if (k.imputed_launches > 0) {
        out["time_ns"]["imputed"] = k.imputed_launches;
    }
    if (k.estimated_launches > 0) {
        out["time_ns"]["estimated"] = {
            {"launches", k.estimated_launches},
            {"error_ns", k.estimate_error_ns ? finite_or_null(*k.estimate_error_ns) : nullptr}};
    }
    if (!k.duration_clusters.empty()) {
        nlohmann::json clusters = nlohmann::json::array();
        for (const DurationCluster& c : k.duration_clusters) {
            clusters.push_back({{"min", c.min_ns},
                                {"max", c.max_ns},
                                {"time_ns", c.time_ns},
                                {"launches", c.launches},
                                {"profiled_launches", c.profiled}});
        }
        out["duration_clusters"] = clusters;
        out["sampled_time_share"] =
            finite_or_null(sampled_time_share(k.duration_clusters).value_or(0));
    }
    if (k.launch_samples > 0) {
        out["replay"] = {
            {"kernel", k.profiled_launches - std::min(k.profiled_launches, k.launch_samples)},
            {"launches", k.launch_samples},
            {"pass_launches", k.pass_launches}};
    }
    if (!k.no_counters.empty()) {
        out["no_counters"] = k.no_counters;
    }
    if (k.collective) {
        out["collective"] = true;
    }
}

/// The fields add_sampling_fields writes (sampled_time_share is derived, not read).
void read_sampling_fields(const JsonNode& n, KernelRecord& k) {
    if (n.has("time_ns")) {
        const JsonNode t = n.at("time_ns");
        if (t.has("first") && !t.at("first").value().is_null()) {
            k.first_launch_ns = t.num("first");
        }
        k.imputed_launches = t.count("imputed");
        if (t.has("estimated")) {
            const JsonNode e = t.at("estimated");
            e.expect_object();
            k.estimated_launches = e.count("launches");
            if (e.has("error_ns") && !e.at("error_ns").value().is_null()) {
                k.estimate_error_ns = e.num("error_ns");
            }
        }
    }
    if (n.has("duration_clusters")) {
        const JsonNode list = n.at("duration_clusters");
        list.expect_array();
        for (std::size_t i = 0; i < list.value().size(); ++i) {
            const JsonNode c = list.at(i);
            c.expect_object();
            k.duration_clusters.push_back({c.num("min"), c.num("max"), c.num("time_ns"),
                                           c.count("launches"), c.count("profiled_launches")});
        }
    }
    if (n.has("replay")) {
        const JsonNode r = n.at("replay");
        r.expect_object();
        k.launch_samples = r.count("launches");
        k.pass_launches = r.count("pass_launches");
    }
    k.no_counters = n.str("no_counters");
    k.collective = n.has("collective") && n.at("collective").value().is_boolean() &&
                   n.at("collective").value().get<bool>();
}

} // namespace irf::model
