# SPDX-License-Identifier: Apache-2.0
"""The mutants of scripts/mutate.py: one-line bugs, each with the tests that must catch it
(docs/reliability.md, "Mutation check"). `before` is a line as it is in the file, stripped, and
must occur there exactly once (`scripts/mutate.py --check`, run by CI)."""
from typing import NamedTuple


class Mutant(NamedTuple):
    """A one-line bug and the tests that must catch it."""
    name: str
    file: str
    before: str  # the line as it is (stripped; must occur once in the file)
    after: str  # the mutated line
    targets: list  # build targets its tests need
    tests: str  # ctest regex of the tests that must catch it (the named test first)
    what: str  # the bug, in words


WALL_TOLERANCE = "const double s_tolerance = std::pow(2.0, 0.25);"
L2_ATOMICS = 'return *read_write + collected_sum(counters, {"l2_sectors_atom", "l2_sectors_red"});'
L2_READ_WRITE = 'counters, {"l2_sectors_read", "l2_sectors_write"});'
L2_SECTORS = L2_READ_WRITE.replace("});", ', "l2_sectors_atom", "l2_sectors_red"});')
WAVE_RESOURCES = "for (const std::size_t resource : {k_issue, k_flops, k_l1}) {"
SPREAD_LOW = "p.time_low_ns = std::min(p.time_low_ns, p.time_point_ns * low);"
CLOCK_SCALE = "q.value *= capped ? std::min(1.0, mhz / assumed) : mhz / assumed;"
PRESENT = "s.present += r.launches > 0 ? 1 : 0;"
NVPROF_BYTES = '{"KB", 1e3},    {"MB", 1e6},     {"GB", 1e9}};'
HIGH_MAPE = "s.high_confidence > 0 ? high / static_cast<double>(s.high_confidence) : 0;"
PLAIN_CELL = "return ch >= 0x20 && ch < 0x7f && ch != ',' && ch != '\"';"
DYNAMIC_LISTS = "for (const auto* list : {&m_include, &m_exclude}) {"
UINT_LIMIT = "if (too_large || ec != std::errc() || ptr != end || parsed > max) {"
VALUE_CLOCK = "if (q.clock_mhz < 0 || (q.clock_mhz > 0 && q.clock_mhz < 100) ||"
JOIN_CLOCK = 'const double mean = name == "clock_hz" ? sum : sum / n;'
TOTAL_TIME = "const double total = k.time_ns.total > 0 ? k.time_ns.total : *time;"
CHAIN_CYCLES = "const double cycles = lat_s && lat_t ? *lat_t / *lat_s : 1.0;"
SATURATED_IF = "!(busiest_t > launch_ns) || launch_ns < k_min_round_trips * latencies.round_trip_ns) {"
ONE_WAVE_SHAPE = "if ((s.waves != 1 && t.waves != 1) || same_shape) {"
ONE_WAVE_FILL = "return std::pair{share, std::min(1.0, share * sms_source / sms_target)};"
FLOOR_BASIS = "!(p.time_point_ns > 0) || p.point_basis != PointBasis::scaled_source) {"
RATIO_POINT = "p.ratio_point = false;"


def model_mutant(name, file, before, after, tests, what):
    """A mutant of model/ that the model unit tests (target test_model) must catch."""
    return Mutant(name, file, before, after, ["test_model"], tests, what)


MUTANTS = [
    model_mutant("wall-tolerance-half-octave", "model/roofline/walls.cpp", WALL_TOLERANCE,
                 WALL_TOLERANCE.replace("0.25", "0.5"), r"ModelWalls\.",
                 "walls claim half an octave instead of a quarter (docs/model.md, Walls)"),
    model_mutant("wall-tolerance-eighth-octave", "model/roofline/walls.cpp", WALL_TOLERANCE,
                 WALL_TOLERANCE.replace("0.25", "0.125"), r"ModelWalls\.",
                 "walls claim an eighth of an octave"),
    model_mutant("l2-without-atomics", "model/roofline/instruction_roofline.cpp", L2_ATOMICS,
                 L2_ATOMICS.replace("+ collected_sum", "+ 0 * collected_sum"), r"ModelIrm\.",
                 "L2 transactions leave out atomics and reductions"),
    model_mutant("level-bytes-without-atomics", "model/roofline/kernel_ceilings.cpp", L2_SECTORS,
                 L2_READ_WRITE, r"ModelKernelCeilings\.",
                 "Eq. 4 L2 bytes leave out atomics and reductions"),
    model_mutant("binding-tie-goes-last", "model/projection/resource_times.cpp",
                 "if (times.ns[r] && *times.ns[r] > longest) {",
                 "if (times.ns[r] && *times.ns[r] >= longest) {",
                 r"ModelResourceTimes\.", "a tie of resource times does not go to issue"),
    model_mutant("irm-tie-goes-last", "model/roofline/instruction_roofline.cpp",
                 "if (**level.roof < limit) {", "if (**level.roof <= limit) {", r"ModelIrm\.",
                 "a tie of roofline ceilings does not go to issue"),
    Mutant("every-cold-launch-profiled", "intercept/sampler.cpp",
           "if (state.cold_claimed.exchange(true, std::memory_order_relaxed)) {",
           "if (state.cold_claimed.exchange(true, std::memory_order_relaxed) && false) {",
           ["test_intercept"], r"Sampler\.", "every first launch of a function is profiled"),
    Mutant("saturated-kernel-profiled", "intercept/sampler.cpp",
           "return cold ? LaunchDecision::time_only : take_requested_sample(state, why);",
           "return cold ? LaunchDecision::time_only : LaunchDecision::profile;",
           ["test_intercept"], r"Sampler\.", "launches past their samples are profiled"),
    model_mutant("registers-not-split", "model/projection/waves.cpp",
                 "return static_cast<int>(warps_per_sub * sub_partitions / warps);",
                 "return static_cast<int>(l.registers_per_sm / per_warp / warps"
                 " + 0 * warps_per_sub);",
                 r"ModelWaves\.", "registers per SM not split over the sub-partitions"),
    Mutant("no-signal-hand-off", "inject/lifecycle.cpp",
           "if (!wake_and_wait(k_signal_wait_ms)) {",
           "if ((s_finalize(), false)) {", ["test_fault_signals"],
           r"FaultSignals\.(SignalOnASmallStack|SignalDuringTheExitWrite)",
           "the signal handler finalizes itself instead of waking the finalizer thread"),
    Mutant("do-nothing-libirf", "inject/injection.cpp", "if (s_called.exchange(true)) {",
           "if (true) {", ["test_fault_inject", "test_fault_signals"],
           r"FaultExit\.|FaultSignals\.ApplicationsOwn|FaultEnv\.|FaultConfig\.FileSettings",
           "InitializeInjection returns success and does nothing"),
    # Issue 59: rules no test stated.
    model_mutant("spread-leaves-low-end", "model/projection/projection_bounds.cpp", SPREAD_LOW,
                 SPREAD_LOW.replace(" * low", ""), r"ModelProjectionBounds\.",
                 "the target's figure spread no longer lowers the interval's low end"),
    model_mutant("clock-raises-ceiling", "model/roofline/sm_clock.cpp", CLOCK_SCALE,
                 "q.value *= capped ? mhz / assumed : mhz / assumed;", r"ModelSmClock\.",
                 "a clock above a value's own clock_mhz raises that ceiling"),
    Mutant("present-counts-timed-ranks", "model/profile/rank_stats.cpp", PRESENT,
           PRESENT.replace("r.launches", "r.time_ns"), ["test_tools_report"], r"ToolsMerge\.",
           "a merged kernel's present counts ranks with time > 0, not ranks that launched it"),
    Mutant("nvprof-kb-binary", "tools/import/values.cpp", NVPROF_BYTES,
           NVPROF_BYTES.replace("1e3}", "1024}"), ["test_tools_import_readers"],
           r"Import(Values|Read)\.", "nvprof's KB read as 1024 bytes"),
    Mutant("high-confidence-mape-over-all", "tools/irf_report/projection_check.cpp", HIGH_MAPE,
           "s.high_confidence > 0 ? high / count : 0;",
           ["test_tools_report", "test_projection_recorded"],
           r"ProjectionCheckMape\.|ProjectionRecorded\.HighConfidenceMape",
           "check-projection's high-confidence MAPE divided by every compared kernel"),
    Mutant("csv-quote-unquoted", "tools/irf_report/csv_kernels.cpp", PLAIN_CELL,
           "return ch >= 0x20 && ch < 0x7f && ch != ',';", ["test_tools_cli"],
           r"ToolsCsvQuoting\.", "the CSV writer's plain-cell path lets a quote through unquoted"),
    Mutant("nvtx-exclude-start-end-ignored", "intercept/nvtx_filter.cpp", DYNAMIC_LISTS,
           "for (const auto* list : {&m_include}) {", ["test_intercept"], r"NvtxFilter\.",
           "an IRF_NVTX_EXCLUDE start/end range excludes nothing"),
    Mutant("documented-maximum-refused", "config/env.cpp", UINT_LIMIT,
           UINT_LIMIT.replace("parsed > max", "parsed >= max"), ["test_config"], r"unit\.Env\.",
           "IRF_SAMPLES=1000 and IRF_CALLSTACK=64, the documented maxima, refused"),
    Mutant("value-clock-in-ghz-loads", "config/ceilings_rules.cpp", VALUE_CLOCK,
           "if (q.clock_mhz < 0 ||", ["test_config"], r"CeilingsYaml\.",
           "a ceiling value's clock_mhz of 1.83 (GHz written as MHz) loads"),
    model_mutant("l2-time-divided-by-fill", "model/projection/resource_times.cpp", WAVE_RESOURCES,
                 WAVE_RESOURCES.replace("k_l1}", "k_l1, k_l2}"), r"ModelWaves\.",
                 "the L2 time is divided by the grid's fill like the SM-side times"),
    Mutant("join-averages-clock-again", "tools/import/join_files.cpp", JOIN_CLOCK,
           "const double mean = sum / n;", ["test_tools_import_readers"], r"ImportJoin\.",
           "clock_hz averaged again when imported files are joined"),
    model_mutant("projects-profiled-launch", "model/projection/projection.cpp", TOTAL_TIME,
                 "const double total = *time;", r"ModelProjection\.",
                 "the profiled launch's time is projected instead of the kernel's total"),
    Mutant("chain-latencies-inverted", "model/projection/memory_concurrency.cpp", CHAIN_CYCLES,
           "const double cycles = lat_s && lat_t ? *lat_s / *lat_t : 1.0;",
           ["test_model_generations"], r"ModelSmConcurrency\.",
           "SM concurrency scales a chain by the source's latency over the target's"),
    Mutant("saturated-target-any-ceiling", "model/projection/saturated_target.cpp", SATURATED_IF,
           "!(busiest_t > 0) || launch_ns < k_min_round_trips * latencies.round_trip_ns) {",
           ["test_model_generations"],
           r"ModelSaturatedTarget\.",
           "a target whose ceiling is above the source's rate is projected at that ceiling"),
    Mutant("one-wave-fill-inverted", "model/projection/uncounted_grid.cpp", ONE_WAVE_FILL,
           "return std::pair{share, std::min(1.0, share * sms_target / sms_source)};",
           ["test_model_generations"], r"ModelUncountedGrid\.",
           "a grid not recorded, read as one wave, fills the target by its SMs over the source's "
           "(both readings: activity_fills and the interval's)"),
    model_mutant("one-wave-any-shape", "model/projection/waves.cpp", ONE_WAVE_SHAPE,
                 "if ((s.waves != 1 && t.waves != 1) || (same_shape && !same_shape)) {",
                 r"ModelWaves\.",
                 "a grid of one wave of one shape on both GPUs is projected with low confidence"),
    Mutant("floor-plus-work-any-basis", "model/projection/projection_partial.cpp", FLOOR_BASIS,
           "!(p.time_point_ns > 0)) {", ["test_model_generations"],
           r"ModelProjectionPartial\.FloorPlusWork",
           "launch floor + work splits a time of the target's own (its ceiling, its latencies) "
           "as if it scaled the source's"),
    Mutant("moved-point-stays-ratio", "model/projection/projection_partial.cpp", RATIO_POINT,
           "p.ratio_point = p.ratio_point;", ["test_model_generations"],
           r"ModelSmConcurrency\.KeplerToMaxwell|ModelMemoryConcurrency\.OnOneSmDesign",
           "a point a rule has moved still reads as the resource ratio's, so the next rule moves "
           "it again"),
]
