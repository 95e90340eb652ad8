// SPDX-License-Identifier: Apache-2.0
// irf-calibrate: measures the local GPU's ceilings and writes them as irf.ceilings/v1 YAML.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "calibrate/benchmarks.hpp"
#include "calibrate/device_info.hpp"
#include "calibrate/identity.hpp"
#include "common/cli.hpp"
#include "common/file_io.hpp"
#include "common/time_format.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"

#ifndef IRF_VERSION
#define IRF_VERSION "unknown"
#endif

namespace {

namespace fs = std::filesystem;
using namespace irf::calibrate;

/// Command-line settings.
struct Options {
    std::string output;
    std::string only;
    bool quick = false;
    bool list = false;
    int device = 0;
    int samples = 0;
};

std::string exe_dir() {
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

void add_options(CLI::App& app, Options& o) {
    app.add_option("-o,--output", o.output,
                   "write the YAML to FILE (atomically) instead of standard output");
    app.add_flag("--quick", o.quick,
                 "fewer samples (3) and shorter launches (5 ms): the whole run takes under a "
                 "minute, with more spread");
    app.add_option("--only", o.only,
                   "comma list of benchmarks or groups (compute, tensor, memory, link) to run; "
                   "see --list. Ceilings not run are left out (warp GIPS is then derived)");
    app.add_flag("--list", o.list, "list the benchmarks and what they measure, then exit");
    app.add_option("--device", o.device, "CUDA device index to calibrate (default 0)")
        ->check(irf::common::whole_number(0, 1023));
    app.add_option("--samples", o.samples,
                   "timed launches per benchmark; the best is kept, the spread reported "
                   "(default 10, 3 with --quick)")
        ->check(irf::common::whole_number(1, 1000));
}

int run(const Options& o) {
    const auto names = select_benchmarks(o.only); // before touching the device: bad input = 2
    if (o.list) {
        for (const auto& s : benchmark_specs()) {
            std::printf("%-12s %-8s %s\n", s.name.c_str(), s.group.c_str(), s.description.c_str());
        }
        return 0;
    }
    const DeviceInfo device = open_device(o.device);
    std::cerr << "[irf-calibrate] " << device.name << " (cc " << device.cc() << ", " << device.sms
              << " SMs, max " << device.max_clock_mhz << " MHz, driver " << device.driver << ")"
              << std::endl;
    RunSettings settings;
    settings.quick = o.quick;
    settings.samples = o.samples > 0 ? o.samples : (o.quick ? 3 : 10);
    settings.target_ms = o.quick ? 5.0 : 20.0;
    settings.tool = std::string("irf-calibrate ") + IRF_VERSION;
    settings.date = utc_date();
    auto ceilings =
        identity(device, irf::config::gpus_dirs(exe_dir()), settings.tool, settings.quick);
    const auto started = std::chrono::steady_clock::now();
    const auto failures = run_benchmarks(device, names, settings, ceilings, std::cerr);
    const std::chrono::duration<double, std::nano> elapsed =
        std::chrono::steady_clock::now() - started;
    // The run's length in the tools' one time format (common/time_format.hpp).
    std::cerr << "[irf-calibrate] " << names.size() << " benchmarks in "
              << irf::common::format_time(elapsed.count()) << "\n";
    for (const auto& warning : complete(ceilings, settings.date)) {
        std::cerr << "[irf-calibrate] warning: " << warning << "\n";
    }
    const std::string text = "# irf-calibrate " + std::string(IRF_VERSION) + ": measured on " +
                             device.name + ", " + utc_timestamp() + "\n" +
                             irf::config::to_yaml(ceilings);
    if (o.output.empty()) {
        std::cout << text << std::flush;
    } else if (const auto err = irf::common::write_file_atomic(o.output, text); !err.empty()) {
        std::cerr << "irf-calibrate: " << err << "\n";
        return 1;
    } else {
        std::cerr << "[irf-calibrate] wrote " << o.output << "\n";
    }
    if (!failures.empty()) {
        std::cerr << "irf-calibrate: " << failures.size()
                  << " benchmark(s) could not run; their ceilings are absent\n";
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"irf-calibrate: measure this GPU's ceilings (issue rate, FP and tensor peaks, "
                 "L1, shared, L2, DRAM, PCIe) and write them as irf.ceilings/v1 YAML. Progress "
                 "goes to standard error.",
                 "irf-calibrate"};
    irf::common::set_version(app, "irf-calibrate", IRF_VERSION);
    app.footer("Exit status: 0 done; 1 no CUDA device, a benchmark failed or the output could "
               "not be written; 2 bad arguments; 3 internal error. Clocks are not locked: every "
               "value records the SM clock it was measured at.");
    Options o;
    add_options(app, o);
    if (const auto done = irf::common::parse_command_line(app, argc, argv, "irf-calibrate",
                                                          "see irf-calibrate --help")) {
        return *done;
    }
    return irf::common::run_tool("irf-calibrate", [&] {
        try {
            return run(o);
        } catch (const std::invalid_argument& e) { // --only and other values checked in run()
            throw irf::common::BadInput(e.what());
        } catch (const NoDevice& e) {
            std::cerr << "irf-calibrate: no CUDA device: " << e.what() << "\n";
            return int{irf::common::exit_failed};
        } catch (const std::runtime_error& e) { // a CUDA call or a benchmark failed
            std::cerr << "irf-calibrate: " << e.what() << "\n";
            return int{irf::common::exit_failed};
        }
    });
}
