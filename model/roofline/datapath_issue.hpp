// SPDX-License-Identifier: Apache-2.0
// The issue time of an instruction mix on an SM's datapaths (issue 54 item 2; docs/model.md,
// "Datapaths"): each class scheduled on the paths that can run it, in the least time.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>

#include "config/ceilings.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// The instruction classes the datapath model schedules, in DatapathShares' order. Control,
/// conversion, uniform and the rest have no datapath: only the schedulers bound them.
inline constexpr std::array<const char*, 5> k_datapath_mix{
    {"int32", "fp32", "fp64", "fp16", "lsu"}};

/// Shares of a kernel's thread instructions per class of k_datapath_mix.
using DatapathShares = std::array<double, k_datapath_mix.size()>;

/// The shares from the SASS class counters: int32 = integer + bit (IMAD, IADD3, LOP3, ISETP; not
/// uniform, which has its own datapath), fp32, fp64, fp16 = fp16 + fp8, lsu = memory, each over
/// all thread_class_* counters; nullopt without them or with no instructions.
[[nodiscard]] std::optional<DatapathShares> datapath_shares(const Counters& counters);

/// The issue ceiling in warp GIPS of a kernel with `shares` on `datapaths` (warp-GIPS by key,
/// config/ceilings.hpp): 1 / the least time per warp instruction, max(1 / peak warp GIPS,
/// max over sets S of classes of share(S) / the summed GIPS of the paths that run any class of
/// S). That maximum is the least time of a schedule (the transportation problem's feasibility,
/// Gale's theorem); a class no path runs is bound by the schedulers only.
[[nodiscard]] double datapath_issue_ceiling(const DatapathShares& shares, double peak_warp_gips,
                                            const std::map<std::string, config::Quantity>& paths);

} // namespace irf::model
