// SPDX-License-Identifier: Apache-2.0
// Parts of the text summary (model/summary/text_summary.cpp) about how a kernel was timed and
// sampled: the max cell that reports a long first launch, verdicts drawn from part of the launches,
// and communication kernels listed apart from compute.
#pragma once

#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// How a kernel record's note about its tensor-types sample begins (the collector writes it,
/// the summary shows it beside the kernel's samples).
inline constexpr const char* k_tensor_types_note = "tensor ops by input type from ";

/// The table's max cell: the max per launch, or the first launch with "*" when it was longer
/// (it is left out of min/mean/max, and must not hide).
[[nodiscard]] std::string max_cell(const KernelRecord& k);

/// "one sample for 451 us - 5.60 ms: the sampled durations hold 23% of its time" for a kernel
/// whose launches spread over several duration clusters; "" when the samples cover one shape.
[[nodiscard]] std::string sample_spread(const KernelRecord& k);

/// Lines "  N  text" (N = the kernel's rank) about how the shown kernels' times and verdicts
/// were drawn: imputed durations and samples that cover part of the launches; "" without any.
[[nodiscard]] std::string sampling_section(const std::vector<const KernelRecord*>& shown);

/// Communication kernels (IRF_EXCLUDE's default list) with their time: they overlap compute, so
/// they are listed apart from the table and its total; "" without any.
[[nodiscard]] std::string collectives_section(const std::vector<const KernelRecord*>& kernels,
                                              const std::vector<std::string>& labels);

/// What a kernel's estimated total stands for (IRF_TIMING=sampled): its untimed launches and
/// the estimate's standard error; "" when its total is measured.
[[nodiscard]] std::string estimate_text(const KernelRecord& k);

} // namespace irf::model
