// SPDX-License-Identifier: Apache-2.0
// Per-rank statistics of a merged job profile.
#include "model/profile/rank_stats.hpp"

#include <algorithm>

#include "model/profile/analysis_json.hpp"

namespace irf::model {

using nlohmann::json;

namespace {

// `values` in rank order (ranks.size() == values.size(), ranks ascending).
RankSpread spread(const std::vector<int>& ranks, std::vector<double> values) {
    RankSpread s;
    long double sum = 0; // the sum of finite doubles stays finite in long double
    for (std::size_t i = 0; i < values.size(); ++i) {
        sum += values[i];
        // Strictly greater: on a tie the lowest rank is named.
        if (i == 0 || values[i] > s.max) {
            s.max = values[i];
            s.max_rank = ranks[i];
        }
    }
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    s.min = values.front();
    s.median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    s.mean = static_cast<double>(sum / static_cast<long double>(n));
    return s;
}

json spread_json(const RankSpread& s) {
    return {{"min", finite_or_null(s.min)},
            {"median", finite_or_null(s.median)},
            {"mean", finite_or_null(s.mean)},
            {"max", finite_or_null(s.max)},
            {"max_rank", s.max_rank}};
}

} // namespace

RankStats rank_stats(std::vector<RankShare> shares) {
    RankStats s;
    if (shares.empty()) {
        return s;
    }
    std::sort(shares.begin(), shares.end(),
              [](const RankShare& a, const RankShare& b) { return a.rank < b.rank; });
    std::vector<int> ranks;
    std::vector<double> launches, times;
    for (const RankShare& r : shares) {
        ranks.push_back(r.rank);
        launches.push_back(static_cast<double>(r.launches));
        times.push_back(r.time_ns);
        s.present += r.launches > 0 ? 1 : 0;
    }
    s.launches = spread(ranks, launches);
    s.time_ns = spread(ranks, times);
    if (s.time_ns.mean > 0) {
        s.imbalance = s.time_ns.max / s.time_ns.mean;
    }
    s.per_rank = std::move(shares);
    return s;
}

json rank_stats_to_json(const RankStats& s) {
    json per_rank = json::array();
    for (const RankShare& r : s.per_rank) {
        per_rank.push_back(
            {{"rank", r.rank}, {"launches", r.launches}, {"time_ns", finite_or_null(r.time_ns)}});
    }
    return {{"present", s.present},
            {"of", s.per_rank.size()},
            {"launches", spread_json(s.launches)},
            {"time_ns", spread_json(s.time_ns)},
            {"imbalance", opt(s.imbalance)},
            // The same rank as time_ns.max_rank, under the name scripts already read.
            {"slowest_rank", s.time_ns.max_rank},
            {"per_rank", per_rank}};
}

RankStats rank_stats_from_json(const JsonNode& node) {
    node.expect_object();
    const JsonNode list = node.at("per_rank");
    list.expect_array();
    std::vector<RankShare> shares;
    for (std::size_t i = 0; i < list.value().size(); ++i) {
        const JsonNode r = list.at(i);
        r.expect_object();
        shares.push_back(
            {static_cast<int>(r.integer("rank")), r.count("launches"), r.num("time_ns")});
    }
    return rank_stats(std::move(shares));
}

} // namespace irf::model
