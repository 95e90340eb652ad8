// SPDX-License-Identifier: Apache-2.0
// Streaming import of an ncu raw page (issue 33 item 7): a generated CSV of N launches x 500
// columns read through irf-report import's reader. The figure in docs/performance.md is the
// 50,000-launch case (about 200 MB); CTest runs a small one briefly. `bench_import --write N`
// only writes the N-launch page and prints its path, to time the whole `irf-report import`.
// BM_ImportDistinctKernels (issue 52 item 4): N launches of N distinct kernels, read and joined
// (the join was quadratic: 100,000 kernels took 38 s); `--write-distinct N` writes that page.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "config/metric_sets.hpp"
#include "tools/import/join_files.hpp"
#include "tools/import/read_export.hpp"

namespace {

constexpr int k_columns = 500;

// A raw page: identity columns, irf's GH100 default set, then filler metrics up to 500 columns;
// 20 distinct kernels so memory holds kernels, not launches.
std::string write_raw_page(int launches) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("irf-bench-import-" + std::to_string(launches) + ".csv");
    std::ofstream out(path, std::ios::binary);
    std::vector<std::string> metrics = irf::config::metric_names(
        irf::config::metric_bindings(*irf::config::chip_family("GH100"), false, false));
    for (int i = static_cast<int>(metrics.size()) + 11; i < k_columns; ++i) {
        metrics.push_back("filler__metric_" + std::to_string(i) + ".sum");
    }
    out << "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
           "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\"";
    for (const std::string& m : metrics) {
        out << ",\"" << m << "\"";
    }
    out << "\n\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"";
    for (const std::string& m : metrics) {
        out << (m == "gpu__time_duration.sum" ? ",\"nsecond\"" : ",\"\"");
    }
    out << "\n";
    for (int id = 0; id < launches; ++id) {
        out << "\"" << id << "\",\"1\",\"app\",\"host\",\"void kernel_" << id % 20
            << "<float>(float*, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(1024, 1, 1)\","
               "\"NVIDIA H100 80GB HBM3\",\"9.0\"";
        for (std::size_t c = 0; c < metrics.size(); ++c) {
            out << ",\"" << (1000 + id % 97) * (c + 1) << "\"";
        }
        out << "\n";
    }
    return path.string();
}

// A raw page of `kernels` launches, each of its own kernel, with a duration and two counters.
std::string write_distinct_kernels(int kernels) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("irf-bench-import-distinct-" + std::to_string(kernels) + ".csv");
    std::ofstream out(path, std::ios::binary);
    out << "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
           "\"gpu__time_duration.sum\",\"smsp__inst_executed.sum\",\"dram__sectors_read.sum\"\n"
           "\"\",\"\",\"\",\"\",\"\",\"\",\"nsecond\",\"inst\",\"sector\"\n";
    for (int id = 0; id < kernels; ++id) {
        out << "\"" << id << "\",\"void ns::kernel_" << id << "<float, " << id % 7
            << ">(float*, int)\",\"(256, 1, 1)\",\"(" << 1 + id % 4096
            << ", 1, 1)\",\"NVIDIA H100 80GB HBM3\",\"9.0\",\"" << 1000 + id % 97 << "\",\""
            << 100000 + id << "\",\"" << 5000 + id % 13 << "\"\n";
    }
    return path.string();
}

void BM_ImportDistinctKernels(benchmark::State& state) {
    const std::string path = write_distinct_kernels(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        std::vector<irf::import::ImportedFile> files;
        files.push_back(irf::import::read_export_file(path)); // moved, as irf-report import does
        const irf::model::Profile p = irf::import::join_files(files);
        if (p.kernels.size() != static_cast<std::size_t>(state.range(0))) {
            state.SkipWithError("kernels lost or merged in the join");
        }
    }
    state.SetItemsProcessed(state.range(0) * state.iterations());
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    state.counters["max_rss_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
    std::filesystem::remove(path);
}

BENCHMARK(BM_ImportDistinctKernels)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_ImportRawPage(benchmark::State& state) {
    const std::string path = write_raw_page(static_cast<int>(state.range(0)));
    const auto bytes = std::filesystem::file_size(path);
    for (auto _ : state) {
        const irf::import::ImportedFile file = irf::import::read_export_file(path);
        benchmark::DoNotOptimize(file.kernels.size());
    }
    state.counters["MB"] = static_cast<double>(bytes) / 1e6;
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
    std::filesystem::remove(path);
}

BENCHMARK(BM_ImportRawPage)->Arg(1000)->Arg(50000)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--write") {
        std::printf("%s\n", write_raw_page(std::stoi(argv[2])).c_str());
        return 0;
    }
    if (argc == 3 && std::string(argv[1]) == "--write-distinct") {
        std::printf("%s\n", write_distinct_kernels(std::stoi(argv[2])).c_str());
        return 0;
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
