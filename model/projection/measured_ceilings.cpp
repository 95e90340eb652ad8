// SPDX-License-Identifier: Apache-2.0
// Measured maxima over datasheet peaks, like with like (docs/model.md, "Measured maxima": PROJ
// sections 4.1 and 5.2).
#include "model/projection/measured_ceilings.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <sstream>
#include <utility>

#include "common/nearest_name.hpp"

namespace irf::model {

namespace {

bool is_measurement(config::Provenance p) {
    return p == config::Provenance::measured || p == config::Provenance::published;
}

// The measured or published alternatives of a peak that a kernel may use: write-only streams
// only for a write-only kernel (PROJ section 5.2).
std::vector<const config::Quantity*> measurements(const config::Quantity& q, bool write_only) {
    std::vector<const config::Quantity*> out;
    if (is_measurement(q.provenance) || !(q.value > 0)) {
        return out; // the file already chose a measurement, or there is no peak to compare
    }
    for (const config::Quantity& alt : q.alternatives) {
        if (is_measurement(alt.provenance) && alt.value > 0 &&
            (write_only || !is_write_only_kind(measurement_kind(alt)))) {
            out.push_back(&alt);
        }
    }
    return out;
}

const config::Quantity* largest(const std::vector<const config::Quantity*>& figures) {
    const config::Quantity* best = nullptr;
    for (const config::Quantity* q : figures) {
        best = best == nullptr || q->value > best->value ? q : best;
    }
    return best;
}

// Takes `chosen` in place of `q`, keeping the evidence list.
void take(config::Quantity& q, const config::Quantity& chosen) {
    config::Quantity copy = chosen;
    copy.alternatives = q.alternatives;
    q = copy;
}

// The shared kind whose measurements come closest to both peaks (the least limited by anything
// but the level itself: a latency-bound read-only stream loses to a triad).
std::optional<std::pair<const config::Quantity*, const config::Quantity*>>
shared_kind(const config::Quantity& qs, const std::vector<const config::Quantity*>& ms,
            const config::Quantity& qt, const std::vector<const config::Quantity*>& mt) {
    std::optional<std::pair<const config::Quantity*, const config::Quantity*>> best;
    double best_score = 0;
    for (const config::Quantity* a : ms) {
        for (const config::Quantity* b : mt) {
            const std::string kind = measurement_kind(*a);
            const double score = std::min(a->value / qs.value, b->value / qt.value);
            if (!kind.empty() && kind == measurement_kind(*b) && score > best_score) {
                best = std::make_pair(a, b);
                best_score = score;
            }
        }
    }
    return best;
}

std::string pair_ceiling(config::Quantity& qs, config::Quantity& qt, bool write_only) {
    const auto ms = measurements(qs, write_only);
    if (ms.empty()) {
        return ""; // no source measurement: both keep their peaks
    }
    if (const auto both = shared_kind(qs, ms, qt, measurements(qt, write_only))) {
        take(qs, *both->first);
        take(qt, *both->second);
        return measurement_kind(qs) + " on both";
    }
    const config::Quantity* m = largest(ms);
    const double ratio = m->value / qs.value;
    take(qs, *m);
    qt.value *= ratio;
    qt.provenance = config::Provenance::derived;
    char buf[160];
    std::snprintf(buf, sizeof buf, "peak x %.3f (the source's %s / peak)", ratio,
                  measurement_kind(qs).c_str());
    qt.method = buf;
    return "target " + qt.method;
}

// The lowest and highest figure of a target ceiling: its file value, the measurements a kernel
// may use and the value chosen (docs/model.md, "Interval width").
std::pair<double, double> figure_range(const config::Quantity& file, const config::Quantity& chosen,
                                       bool write_only) {
    std::pair<double, double> range{chosen.value, chosen.value};
    const auto widen = [&range](double v) {
        range = {std::min(range.first, v), std::max(range.second, v)};
    };
    widen(file.value);
    for (const config::Quantity& alt : file.alternatives) {
        if (is_measurement(alt.provenance) && alt.value > 0 && alt.unit == file.unit &&
            (write_only || !is_write_only_kind(measurement_kind(alt)))) {
            widen(alt.value);
        }
    }
    return range;
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

// The same ceiling key of another entry, or nullptr when it has none.
config::Quantity* find_ceiling(config::Ceilings& c, const std::string& key) {
    config::Quantity* found = nullptr;
    each_ceiling(c,
                 [&](const std::string& k, config::Quantity& q) { found = k == key ? &q : found; });
    return found;
}

} // namespace

std::string measurement_kind(const config::Quantity& q) {
    std::istringstream words(q.method);
    std::string kind, word;
    for (int i = 0; i < 2 && words >> word; ++i) {
        while (!word.empty() && std::ispunct(static_cast<unsigned char>(word.back())) != 0) {
            word.pop_back(); // "triad;" and "triad" are one kind
        }
        kind += (kind.empty() ? "" : " ") + common::lowercase(word);
    }
    return kind;
}

bool is_write_only_kind(const std::string& kind) {
    return kind.find("write-only") != std::string::npos || kind.find("init") != std::string::npos;
}

config::Ceilings prefer_measured(const config::Ceilings& ceilings, bool write_only) {
    config::Ceilings out = ceilings;
    each_ceiling(out, [write_only](const std::string&, config::Quantity& q) {
        if (const config::Quantity* best = largest(measurements(q, write_only))) {
            take(q, *best);
        }
    });
    return out;
}

CeilingPair like_for_like(const config::Ceilings& source, const config::Ceilings& target,
                          bool write_only) {
    CeilingPair pair{source, target, {}, {}};
    each_ceiling(pair.source, [&](const std::string& key, config::Quantity& qs) {
        config::Quantity* qt = find_ceiling(pair.target, key);
        if (qt == nullptr) {
            if (const config::Quantity* best = largest(measurements(qs, write_only))) {
                take(qs, *best); // nothing to compare with: the source alone
            }
            return;
        }
        const config::Quantity peak = *qt;
        const std::string how = pair_ceiling(qs, *qt, write_only);
        pair.target_spread[key] = figure_range(peak, *qt, write_only);
        if (!how.empty()) {
            pair.notes.push_back(key + ": " + how);
        }
    });
    return pair;
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
