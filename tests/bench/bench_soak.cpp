// SPDX-License-Identifier: Apache-2.0
// Soak (issue 34 item 2): N launches from 4 threads over 2,000 distinct kernels, played by the
// fake backend with CUPTI-like delivery (buffers of 20,000 records from its own thread) into the
// collector. Prints the RSS after warm-up (the first 10% of launches) and its growth after, and
// the time to build and write the profile at exit. Fails when RSS grows by 32 MiB or more.
//   bench_soak [launches]     (default 5,000,000; docs/performance.md, "Soak")
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

#include "intercept/collector.hpp"
#include "intercept/fake/fake_backend.hpp"
#include "model/profile/profile_json.hpp"
#include "model/summary/text_summary.hpp"

namespace {

constexpr int k_threads = 4;
constexpr int k_kernels = 2000;
constexpr long k_growth_limit = 32l << 20;

long rss_bytes() {
    long pages_total = 0;
    long pages_resident = 0;
    std::ifstream statm("/proc/self/statm");
    statm >> pages_total >> pages_resident;
    return pages_resident * sysconf(_SC_PAGESIZE);
}

/// 2,000 kernels spread over script threads 1-4, each launched launches / 2,000 times.
std::string soak_script(std::uint64_t launches) {
    const std::uint64_t repeat = std::max<std::uint64_t>(launches / k_kernels, 1);
    std::string s = R"({"activity": {"buffer_records": 20000}, "launches": [)";
    for (int k = 0; k < k_kernels; ++k) {
        s += std::string(k == 0 ? "" : ",") + R"({"kernel": "_Z6kernelILi)" + std::to_string(k) +
             R"(EEvPf", "thread": )" + std::to_string(1 + k % k_threads) + R"(, "repeat": )" +
             std::to_string(repeat) +
             R"(, "duration_ns": [1000, 3000], "counters": {"inst_warp": 7}})";
    }
    return s + "]}";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    using namespace irf;
    const std::uint64_t launches = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 5000000;
    const std::string path = "/tmp/irf-soak-" + std::to_string(getpid()) + ".json";
    std::ofstream(path) << soak_script(launches);
    config::Config config;
    config.callstack = 0;
    intercept::Collector collector{config};
    std::unique_ptr<intercept::Backend> backend = intercept::make_fake_backend(path);

    // The monitor notes the RSS once the collector has seen 10% of the launches, then the peak.
    std::atomic<bool> done{false};
    long warm_rss = 0;
    long peak_rss = 0;
    std::thread monitor([&] {
        while (!done.load()) {
            const std::uint64_t seen = collector.stats().launches;
            const long rss = rss_bytes();
            if (warm_rss == 0 && seen >= launches / 10) {
                warm_rss = rss;
            }
            peak_rss = warm_rss != 0 ? std::max(peak_rss, rss) : 0;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });
    const auto start = std::chrono::steady_clock::now();
    const bool started = backend->start(collector); // returns when every thread has played
    const double play_s = seconds_since(start);
    done.store(true);
    monitor.join();
    std::remove(path.c_str());
    if (!started) {
        return 2;
    }
    const auto exit_start = std::chrono::steady_clock::now();
    collector.stop_recording();
    backend->flush();
    backend->stop();
    model::Profile profile;
    collector.fill_profile(profile);
    const std::string json = model::dump_json(model::profile_to_json(profile));
    const std::string summary = model::text_summary(profile);
    const double exit_s = seconds_since(exit_start);

    const long growth = peak_rss - warm_rss;
    std::printf("soak: %llu launches (%llu kernels, %d threads) in %.1f s; RSS after warm-up "
                "%.1f MiB, growth after it %.1f MiB; exit: profile built and written in %.3f s "
                "(%zu bytes); durations lost %llu\n",
                static_cast<unsigned long long>(profile.coverage.launches),
                static_cast<unsigned long long>(profile.coverage.kernels), k_threads, play_s,
                static_cast<double>(warm_rss) / (1 << 20), static_cast<double>(growth) / (1 << 20),
                exit_s, json.size() + summary.size(),
                static_cast<unsigned long long>(profile.coverage.lost_durations));
    if (warm_rss == 0 || growth >= k_growth_limit) {
        std::printf("soak: FAIL: RSS grew by 32 MiB or more after warm-up\n");
        return 1;
    }
    return 0;
}
