// SPDX-License-Identifier: Apache-2.0
// Bandwidth in transactions: the unit of the Instruction Roofline's memory ceilings
// (docs/model.md, "Units": GTXN/s = GB/s / 32; a shared wavefront is 128 B).
#pragma once

namespace irf::model {

/// Bytes of one L1/L2/HBM transaction (a sector).
inline constexpr double k_sector_bytes = 32.0;
/// Bytes of one shared-memory transaction (a wavefront).
inline constexpr double k_wavefront_bytes = 128.0;

/// GB/s -> giga transactions per second of `bytes_per_transaction` bytes (32: sectors).
[[nodiscard]] constexpr double gtxn_per_s(double gb_per_s,
                                          double bytes_per_transaction = k_sector_bytes) {
    return gb_per_s / bytes_per_transaction;
}

} // namespace irf::model
