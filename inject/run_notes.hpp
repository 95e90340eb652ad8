// SPDX-License-Identifier: Apache-2.0
// At exit: why a profile has nothing to show (no launch at all, or a kernel filter that matched
// nothing), said in the summary instead of leaving an empty table to be puzzled over.
#pragma once

#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::inject {

/// Most-launched names listed when IRF_KERNELS matched nothing.
constexpr std::size_t k_listed_names = 5;

/// The lines to add to the profile's warnings: "no kernels were launched" when no launch was
/// seen; "no kernel matched --kernels 'X' ..." with the k_listed_names most-launched names when
/// `kernels` (IRF_KERNELS, "" = unset) matches none of the launched kernels; else nothing.
[[nodiscard]] std::vector<std::string> empty_run_notes(const model::Profile& profile,
                                                       const std::string& kernels);

/// One line when NVTX ranges cannot reach irf (#38 item 10): `nvtx_injection`
/// (NVTX_INJECTION64_PATH, null = unset) names another library (nsys, kineto), or is unset while
/// `nvtx_filters` (IRF_NVTX_INCLUDE/EXCLUDE) are set and ranges come from NVTX
/// (`ranges_from_nvtx`: not the fake backend's script). Empty when ranges can arrive.
[[nodiscard]] std::string nvtx_injection_note(const char* nvtx_injection, bool nvtx_filters,
                                              bool ranges_from_nvtx);

/// The line to add when IRF_NVTX_INCLUDE (`nvtx_include`, "" = unset) let no launch be profiled
/// and matches none of the profile's push/pop region paths: it says so, explains the trailing '/'
/// of push/pop expressions when one expression lacks it ('forward/layer*' names a start/end
/// range), and lists the k_listed_names region paths with the most launches; else nothing.
[[nodiscard]] std::vector<std::string> nvtx_filter_notes(const model::Profile& profile,
                                                         const std::string& nvtx_include);

} // namespace irf::inject
