// SPDX-License-Identifier: Apache-2.0
// Reading one element of a profile's `kernels` (keys: docs/output-schema.md).
#include <array>
#include <cmath>

#include "model/profile/analysis_json.hpp"
#include "model/profile/json_reader.hpp"
#include "model/profile/profile_json_stream.hpp"
#include "model/profile/regions_json.hpp"
#include "model/profile/sampling_json.hpp"

namespace irf::model {

namespace {

std::array<std::uint32_t, 3> dim3_from(const JsonNode& n) {
    n.expect_array();
    if (n.value().size() != 3) {
        n.fail("expected 3 numbers");
    }
    std::array<std::uint32_t, 3> out{};
    for (std::size_t i = 0; i < 3; ++i) {
        const std::uint64_t v = n.at(i).as_count();
        if (v > 0xffffffffull) {
            n.at(i).fail("out of range");
        }
        out[i] = static_cast<std::uint32_t>(v);
    }
    return out;
}

std::uint32_t u32(const JsonNode& n, const std::string& key) {
    const std::uint64_t v = n.count(key);
    if (v > 0xffffffffull) {
        n.at(key).fail("out of range");
    }
    return static_cast<std::uint32_t>(v);
}

} // namespace

KernelRecord kernel_from_json(const JsonNode& n) {
    n.expect_object();
    KernelRecord k;
    k.name = n.at("name").as_str();
    k.mangled = n.str("mangled");
    k.call_site = n.str("call_site");
    if (n.has("launch")) {
        const JsonNode l = n.at("launch");
        l.expect_object();
        if (l.has("grid")) {
            k.launch.grid = dim3_from(l.at("grid"));
        }
        if (l.has("block")) {
            k.launch.block = dim3_from(l.at("block"));
        }
        k.launch.smem_bytes = u32(l, "smem");
        k.launch.regs = u32(l, "regs");
    } else {
        // Not recorded (a public export): an empty grid counts no waves, as the importers
        // write it; the default 1 x 1 launch would be projected as one block of one thread.
        k.launch.grid = {0, 0, 0};
    }
    k.launches = n.count("launches");
    k.profiled_launches = n.count("profiled_launches");
    if (n.has("time_ns")) {
        const JsonNode t = n.at("time_ns");
        t.expect_object();
        // Nulls: an imported kernel whose files give no duration (docs/output-schema.md).
        const auto total = t.value().find("total");
        k.untimed = total != t.value().end() && total->is_null();
        if (!k.untimed) {
            k.time_ns = TimeStats{t.num("total"), t.num("min"), t.num("mean"), t.num("max")};
            // A duration is never negative: merge summed -1 into job totals and trajectory
            // printed "-1.00x faster" (issue #39 items 10 and 11).
            for (const char* key : {"total", "min", "mean", "max"}) {
                if (t.num(key) < 0) {
                    t.at(key).fail("a duration cannot be negative");
                }
            }
        }
    }
    read_sampling_fields(n, k);
    if (n.has("counters")) {
        const JsonNode c = n.at("counters");
        c.expect_object();
        // The object's keys come sorted and unique, so each goes at the map's end; a finite
        // number is read here, anything else by as_num for its message (the path is built only
        // then: building it for every counter was a third of reading a kernel).
        for (auto it = c.value().begin(); it != c.value().end(); ++it) {
            const nlohmann::json& v = it.value();
            if (v.is_null()) {
                continue;
            }
            const double value = v.is_number() && std::isfinite(v.get<double>())
                                     ? v.get<double>()
                                     : c.at(it.key()).as_num();
            k.counters.emplace_hint(k.counters.end(), it.key(), value);
        }
    }
    if (n.has("notes")) {
        k.notes = n.at("notes").as_strings();
    }
    if (n.has("analysis")) {
        k.analysis = analysis_from_json(n.at("analysis"));
    }
    if (n.has("regions")) {
        k.regions = kernel_regions_from_json(n.at("regions"));
    }
    if (n.has("ranks")) {
        k.ranks = rank_stats_from_json(n.at("ranks"));
    }
    return k;
}

} // namespace irf::model
