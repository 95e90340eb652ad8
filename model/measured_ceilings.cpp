// SPDX-License-Identifier: Apache-2.0
// Measured maxima over datasheet peaks (docs/model.md: PROJ section 4.1).
#include "model/measured_ceilings.hpp"

#include <optional>
#include <utility>

namespace irf::model {

namespace {

bool is_measurement(config::Provenance p) {
    return p == config::Provenance::measured || p == config::Provenance::published;
}

// Replaces a spec/derived value by its largest measured or published alternative, if any.
void prefer(config::Quantity& q) {
    if (is_measurement(q.provenance)) {
        return;
    }
    const config::Quantity* best = nullptr;
    for (const config::Quantity& alt : q.alternatives) {
        if (is_measurement(alt.provenance) && alt.value > 0 &&
            (best == nullptr || alt.value > best->value)) {
            best = &alt;
        }
    }
    if (best != nullptr) {
        config::Quantity chosen = *best;
        chosen.alternatives = q.alternatives;
        q = chosen;
    }
}

template <typename Visit> void each_ceiling(config::Ceilings& c, Visit visit) {
    visit("warp_gips", c.warp_gips);
    using Level = std::pair<const char*, std::optional<config::Quantity>*>;
    for (const Level& level : {Level{"l1_gbs", &c.l1_gbs}, Level{"shared_gbs", &c.shared_gbs},
                               Level{"l2_gbs", &c.l2_gbs}, Level{"hbm_gbs", &c.hbm_gbs}}) {
        if (*level.second) {
            visit(level.first, **level.second);
        }
    }
    for (auto& [key, q] : c.gflops) {
        visit("gflops." + key, q);
    }
    for (auto& [key, q] : c.tensor_tflops) {
        visit("tensor." + key, q);
    }
}

} // namespace

config::Ceilings prefer_measured(const config::Ceilings& ceilings) {
    config::Ceilings out = ceilings;
    each_ceiling(out, [](const std::string&, config::Quantity& q) { prefer(q); });
    return out;
}

std::map<std::string, std::string> ceiling_provenance(const config::Ceilings& ceilings) {
    std::map<std::string, std::string> out;
    config::Ceilings copy = ceilings; // each_ceiling visits mutable values
    each_ceiling(copy, [&out](const std::string& key, config::Quantity& q) {
        out[key] = config::to_string(q.provenance);
    });
    return out;
}

} // namespace irf::model
