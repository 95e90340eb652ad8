// SPDX-License-Identifier: Apache-2.0
// `irf-report trajectory RUN.json... [-o OUT.json] [--top N]`: roofline scaling trajectories of
// the same application profiled at several SM counts (docs/trajectories.md).
#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "common/file_io.hpp"
#include "model/projection/trajectory.hpp"
#include "model/projection/trajectory_report.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

struct TrajectoryOptions {
    std::vector<std::string> runs;
    std::string output;
    std::size_t top = 10;
};

int run_trajectory(const TrajectoryOptions& o) {
    refuse_output_over_inputs("irf-report trajectory", o.output, o.runs);
    std::vector<model::Profile> profiles;
    profiles.reserve(o.runs.size());
    for (const std::string& path : o.runs) {
        profiles.push_back(load_input(path));
        if (!profiles.back().ceilings) {
            throw InputError(path + ": not analysed (no ceilings): run irf-report analyze " + path +
                             " --json OUT.json first");
        }
    }
    std::vector<const model::Profile*> runs;
    for (const model::Profile& p : profiles) {
        runs.push_back(&p);
    }
    std::vector<model::KernelTrajectory> kernels;
    try {
        kernels = model::build_trajectories(runs);
    } catch (const std::invalid_argument& e) {
        throw InputError(e.what());
    }
    // The whole GPU's ceilings (the run with the most SMs) for the figures' full rooflines.
    const model::Profile& widest = *std::max_element(
        profiles.begin(), profiles.end(), [](const model::Profile& a, const model::Profile& b) {
            return a.gpu.sms_active.value_or(a.gpu.sms) < b.gpu.sms_active.value_or(b.gpu.sms);
        });
    if (!o.output.empty()) {
        const std::string error = common::write_file_atomic(
            o.output, model::dump_trajectories(kernels, *widest.ceilings, widest.gpu.sms));
        if (!error.empty()) {
            throw InputError(error);
        }
    }
    std::cout << model::trajectory_table(kernels, o.top);
    return 0;
}

const bool s_trajectory_registered = register_command(
    {"trajectory", "Roofline scaling trajectories from runs at several SM counts",
     [](CLI::App& sub) -> std::function<int()> {
         auto o = std::make_shared<TrajectoryOptions>();
         sub.add_option("runs", o->runs, "Analysed profiles of one application (irf trajectory)")
             ->required()
             ->expected(2, -1);
         sub.add_option("-o,--output", o->output, "Write irf.trajectory/v1 JSON here");
         sub.add_option("--top", o->top, "Kernels in the table (in the order first seen)")
             ->check(common::whole_number(1));
         return [o] { return run_trajectory(*o); };
     }});

} // namespace
} // namespace irf::report
