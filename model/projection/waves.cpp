// SPDX-License-Identifier: Apache-2.0
// Blocks per SM and waves (docs/model.md, "Waves").
#include "model/projection/waves.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace irf::model {

std::uint64_t grid_blocks(const std::array<std::uint32_t, 3>& grid) {
    return static_cast<std::uint64_t>(grid[0]) * grid[1] * grid[2];
}

double warps_per_block(const LaunchConfig& launch) {
    const double threads = static_cast<double>(launch.block[0]) * launch.block[1] * launch.block[2];
    return static_cast<double>(static_cast<long long>((threads + 31) / 32));
}

std::optional<std::string> one_wave_of_another_shape(const WaveCount& s, const WaveCount& t) {
    const bool same_shape = s.waves == t.waves &&
                            s.blocks_per_busiest_sm == t.blocks_per_busiest_sm &&
                            std::abs(s.fill - t.fill) < 1e-9;
    if ((s.waves != 1 && t.waves != 1) || same_shape) {
        return std::nullopt;
    }
    if (s.waves == 1 && t.waves == 1) {
        return "source and the target";
    }
    return s.waves == 1 ? "source" : "target";
}

double resident_warps(const WaveCount& w, int sms, double per_block) {
    const std::uint64_t slots = static_cast<std::uint64_t>(std::max(sms, 0)) *
                                static_cast<std::uint64_t>(std::max(w.blocks_per_sm, 0));
    return static_cast<double>(std::min(w.blocks, slots)) * per_block;
}

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
    return (a + b - 1) / b;
}

std::uint64_t round_up(std::uint64_t a, std::uint64_t unit) {
    return ceil_div(a, unit) * unit;
}

// Registers are allocated per warp, in units, inside each scheduler's sub-partition; a block's
// warps are rounded up to the sub-partitions for the per-block check.
int blocks_by_registers(std::uint64_t regs, std::uint64_t warps, const config::SmLimits& l,
                        std::uint64_t sub_partitions) {
    if (regs == 0) {
        return INT_MAX; // not recorded: no register limit can be applied
    }
    if (regs > static_cast<std::uint64_t>(l.max_registers_per_thread)) {
        return 0;
    }
    const std::uint64_t per_warp = round_up(regs * 32, l.register_alloc_unit);
    if (per_warp * round_up(warps, sub_partitions) >
        static_cast<std::uint64_t>(l.registers_per_sm)) {
        return 0;
    }
    const std::uint64_t warps_per_sub = l.registers_per_sm / sub_partitions / per_warp;
    return static_cast<int>(warps_per_sub * sub_partitions / warps);
}

int blocks_by_shared(std::uint64_t smem, const config::SmLimits& l) {
    const std::uint64_t used = smem + l.shared_reserved_per_block;
    const std::uint64_t allocated = round_up(used, l.shared_alloc_unit);
    if (allocated > static_cast<std::uint64_t>(l.shared_bytes_per_block) +
                        static_cast<std::uint64_t>(l.shared_reserved_per_block)) {
        return 0;
    }
    return allocated == 0 ? INT_MAX : static_cast<int>(l.shared_bytes_per_sm / allocated);
}

} // namespace

Occupancy occupancy(const LaunchConfig& launch, const config::SmLimits& l, int sub_partitions) {
    const std::uint64_t threads =
        std::uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
    if (threads == 0 || threads > static_cast<std::uint64_t>(l.max_threads_per_block)) {
        return {0, "block size"};
    }
    const std::uint64_t warps = ceil_div(threads, 32);
    const std::uint64_t subs = static_cast<std::uint64_t>(std::max(sub_partitions, 1));
    // Ties keep the first name: the hard caps before the launch's own resources.
    const std::pair<int, const char*> limits[] = {
        {static_cast<int>(l.max_warps_per_sm / warps), "warps"},
        {l.max_blocks_per_sm, "blocks"},
        {blocks_by_registers(launch.regs, warps, l, subs), "registers"},
        {blocks_by_shared(launch.smem_bytes, l), "shared"},
    };
    Occupancy o{INT_MAX, ""};
    for (const auto& [blocks, name] : limits) {
        if (blocks < o.blocks_per_sm) {
            o = {blocks, name};
        }
    }
    return o;
}

std::optional<WaveCount> wave_count(const LaunchConfig& launch, const config::GpuIdentity& gpu,
                                    std::string& why) {
    if (!gpu.sm_limits || gpu.sms <= 0) {
        why = "no SM limits for " + (gpu.key.empty() ? gpu.name : gpu.key);
        return std::nullopt;
    }
    WaveCount w;
    w.blocks = std::uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
    const Occupancy o = occupancy(launch, *gpu.sm_limits, gpu.schedulers_per_sm);
    w.blocks_per_sm = o.blocks_per_sm;
    w.limiter = o.limiter;
    if (w.blocks == 0) {
        why = "empty grid";
        return std::nullopt;
    }
    if (w.blocks_per_sm <= 0) {
        why = "a block does not fit on an SM of " + (gpu.key.empty() ? gpu.name : gpu.key) + " (" +
              w.limiter + ")";
        return std::nullopt;
    }
    const std::uint64_t sms = static_cast<std::uint64_t>(gpu.sms);
    const std::uint64_t slots = sms * static_cast<std::uint64_t>(w.blocks_per_sm);
    w.full_waves = w.blocks / slots;
    w.tail_blocks = w.blocks % slots;
    w.waves = w.full_waves + (w.tail_blocks > 0 ? 1 : 0);
    // The tail's blocks spread over the SMs, so the busiest SM runs ceil(tail / SMs) of them.
    w.blocks_per_busiest_sm =
        w.full_waves * static_cast<std::uint64_t>(w.blocks_per_sm) + ceil_div(w.tail_blocks, sms);
    w.fill = static_cast<double>(w.blocks) /
             (static_cast<double>(sms) * static_cast<double>(w.blocks_per_busiest_sm));
    return w;
}

std::optional<LaunchConfig> persistent_launch(const LaunchConfig& launch,
                                              const config::GpuIdentity& source,
                                              const config::GpuIdentity& target) {
    std::string why;
    const auto s = wave_count(launch, source, why);
    const auto t = wave_count(launch, target, why);
    if (!s || !t) {
        return std::nullopt;
    }
    const std::uint64_t sms = static_cast<std::uint64_t>(source.sms);
    const std::uint64_t per_sm = s->blocks / sms;
    if (s->blocks % sms != 0 || per_sm > static_cast<std::uint64_t>(s->blocks_per_sm)) {
        return std::nullopt;
    }
    const std::uint64_t target_per_sm =
        std::min(per_sm, static_cast<std::uint64_t>(t->blocks_per_sm));
    LaunchConfig out = launch;
    out.grid = {static_cast<std::uint32_t>(target_per_sm * static_cast<std::uint64_t>(target.sms)),
                1, 1};
    return out;
}

} // namespace irf::model
