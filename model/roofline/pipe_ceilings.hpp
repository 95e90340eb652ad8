// SPDX-License-Identifier: Apache-2.0
// Pipe sub-ceilings of the Instruction Roofline (docs/model.md: "Pipe sub-ceilings", SLIDES).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// The pipe each instruction-mix class issues to, as `ceilings.pipe_gips` names it, in the mix's
/// class order: integer -> int32, fp32, fp64, fp16, ldst -> lsu. Control and other have no pipe
/// sub-ceiling.
[[nodiscard]] const std::vector<std::pair<std::string, std::string>>& pipe_of_class();

/// The shares of warp instructions that issue to each capped pipe, keyed by mix class (integer
/// -> int32 = the ALU pipe, fp32 -> the FMA pipe, fp64, fp16, ldst -> lsu). With the pipe_mix
/// counters, inst_pipe_{alu,fma,fp64,lsu} / inst_warp. Without them, the SASS-class `mix` in
/// which `integer` keeps only the bit class (LOP3, SHF: surely on the ALU), because IMAD and
/// IMUL issue on the FMA pipe and uniform instructions on the uniform pipe. Empty when neither
/// is known.
[[nodiscard]] std::map<std::string, double> issue_mix(const Counters& counters,
                                                      const std::map<std::string, double>& mix);

/// The pipe peaks of a ceilings entry in warp GIPS, by pipe key.
[[nodiscard]] std::map<std::string, double> pipe_peaks(const config::Ceilings& ceilings);

/// The issue ceiling of an instruction mix, in warp GIPS: min(peak warp GIPS, min over the mix's
/// pipes with a peak of peak / share), and the pipe that sets it ("issue": the schedulers, also
/// on a tie). The projection's issue time is inst_warp over this ceiling.
[[nodiscard]] std::pair<double, std::string>
mix_issue_ceiling(const std::map<std::string, double>& mix, double peak_warp_gips,
                  const std::map<std::string, double>& pipe_gips);

/// Each pipe's estimated warp GIPS (its class's share of thread instructions x the kernel's warp
/// GIPS, so predication is assumed even across classes), its ceiling and the kernel's ceiling
/// min(peak warp GIPS, min over pipes of pipe GIPS / share): the pipes run concurrently, so the
/// busiest one bounds the issue rate. nullopt without a mix (the mix's reason covers it), and
/// with a reason in `missing` without a positive warp GIPS or a pipe ceiling for the classes.
[[nodiscard]] std::optional<PipeCeilings>
pipe_ceilings(const std::map<std::string, double>& mix, double gips_warp, double peak_warp_gips,
              const std::map<std::string, double>& pipe_gips, std::vector<std::string>& missing);

/// The pipe a kernel uses most, relative to its ceiling ("" with no pipe), and that use.
[[nodiscard]] std::pair<std::string, PipeUse> busiest_pipe(const PipeCeilings& pipes);

/// "fp64 46%": the busiest pipe and its share of its peak, as the summaries print it.
[[nodiscard]] std::string busiest_pipe_label(const PipeCeilings& pipes);

} // namespace irf::model
