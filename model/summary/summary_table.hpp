// SPDX-License-Identifier: Apache-2.0
// The kernel table's rows of the text summary (model/summary/text_summary.cpp, docs/model.md).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

struct RowLayout {
    int name_width = 0;
    int global_width = 12; ///< the longest "pattern width" label shown, at least 12
    bool fill = false;     ///< a shown kernel's waves were counted: the fill column
    bool tensor = false;   ///< a shown kernel issued tensor instructions: the tensor column
    bool job = false;      ///< a merged job: the imbalance column
};

// Tensor-pipe use: "65.0%", "?" when tensor instructions ran but their ops were not counted,

/// Width of a projection column: its "->name" header, at least 8.
[[nodiscard]] int target_width(const std::string& target);

/// Tensor-pipe use: "65.0%", "?" when tensor instructions ran but their ops were not counted,
/// "-" without tensor instructions.
[[nodiscard]] std::string tensor_cell(const KernelRecord& k);

/// The grid's fill on the profiled GPU: the share of the SMs' time it keeps busy, rounded down
/// ("48%"; "100%" only when full), with its waves when more than one ("76% 2w"); "-" when the
/// waves were not counted.
[[nodiscard]] std::string fill_cell(const KernelRecord& k);

/// The global wall's pattern and width label ("-" without a global wall).
[[nodiscard]] std::string global_cell(const KernelRecord& k);

/// The cells of kernel `k`'s line of the kernel table, ranked `rank`, named `label`, each with
/// its leading separator, in header_cells' order.
[[nodiscard]] std::vector<std::string> row_cells(const KernelRecord& k, const std::string& label,
                                                 const RowLayout& layout, std::size_t rank,
                                                 double total_ns,
                                                 const std::vector<std::string>& targets);

/// The header's columns: each one's name ("kernel", "total", ..., "->h100-sxm5") and cell.
[[nodiscard]] std::vector<std::pair<std::string, std::string>>
header_cells(const RowLayout& layout, const std::vector<std::string>& targets);

/// Which columns to keep so that every line of `lines` (header and rows, as cells) is at most
/// `max_width` characters (0: all), dropping the least needed first (projections, recover, min,
/// max, mean, ...; kernel, total, bound and roof% always stay); their names go to `dropped`.
[[nodiscard]] std::vector<bool> fit_columns(const std::vector<std::vector<std::string>>& lines,
                                            const std::vector<std::string>& names,
                                            std::size_t max_width,
                                            std::vector<std::string>& dropped);

/// The kept cells joined into one line, trailing spaces cut, with its newline.
[[nodiscard]] std::string join_cells(const std::vector<std::string>& cells,
                                     const std::vector<bool>& keep);

} // namespace irf::model
