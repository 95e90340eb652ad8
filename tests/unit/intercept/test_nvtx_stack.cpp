// SPDX-License-Identifier: Apache-2.0
// NVTX capture without CUDA: per-thread stacks, interned paths, domains, misuse counts, many
// names, the collector's attribution of launches and the NVTX filters, and a fork while the
// registry is locked.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/nvtx_filter.hpp"
#include "intercept/nvtx_stack.hpp"

namespace irf::intercept {
namespace test_nvtx_stack {
namespace {

/// Leaves the calling thread with no open range whatever a test did.
struct CleanStack {
    CleanStack() { nvtx::set_stack({}); }
    ~CleanStack() { nvtx::set_stack({}); }
};

TEST(NvtxStack, PushPopBuildsPathsPerThread) {
    const CleanStack clean;
    EXPECT_EQ(nvtx::current_path(), nvtx::k_root);
    EXPECT_EQ(nvtx::push(nvtx::k_default_domain, "outer"), 0);
    const std::uint32_t outer = nvtx::current_path();
    EXPECT_EQ(nvtx::push(nvtx::k_default_domain, "inner"), 1);
    EXPECT_EQ(nvtx::path_name(nvtx::current_path()), "outer/inner");
    std::uint32_t other_thread = 1;
    std::thread([&other_thread] { other_thread = nvtx::current_path(); }).join();
    EXPECT_EQ(other_thread, nvtx::k_root); // stacks are per thread
    EXPECT_EQ(nvtx::pop(), 1);
    EXPECT_EQ(nvtx::current_path(), outer);
    nvtx::push(nvtx::k_default_domain, "inner"); // the same path again: the same id
    const std::uint32_t again = nvtx::current_path();
    nvtx::pop();
    nvtx::push(nvtx::k_default_domain, "inner");
    EXPECT_EQ(nvtx::current_path(), again);
}

TEST(NvtxStack, DomainsLabelTheirRanges) {
    const CleanStack clean;
    const std::uint32_t d = nvtx::domain("mpi");
    EXPECT_NE(d, nvtx::k_default_domain);
    EXPECT_EQ(nvtx::domain("mpi"), d);
    nvtx::push(nvtx::k_default_domain, "step");
    nvtx::push(d, "allreduce");
    EXPECT_EQ(nvtx::path_name(nvtx::current_path()), "step/mpi@allreduce");
    const std::uint32_t labelled = nvtx::current_path();
    nvtx::pop();
    nvtx::push(nvtx::k_default_domain, "allreduce"); // same name, default domain: another path
    EXPECT_NE(nvtx::current_path(), labelled);
}

TEST(NvtxStack, UnbalancedPopIsCountedAndIgnored) {
    const CleanStack clean;
    const std::uint64_t before = nvtx::stats().unbalanced_pops;
    EXPECT_EQ(nvtx::pop(), -1);
    EXPECT_EQ(nvtx::pop(), -1);
    EXPECT_EQ(nvtx::stats().unbalanced_pops, before + 2);
    EXPECT_EQ(nvtx::depth(), 0);
    nvtx::push(nvtx::k_default_domain, "after");
    EXPECT_EQ(nvtx::path_name(nvtx::current_path()), "after");
}

TEST(NvtxStack, TooDeepPushesKeepTheDeepestKeptRange) {
    const CleanStack clean;
    const std::uint64_t before = nvtx::stats().too_deep;
    for (int i = 0; i < nvtx::k_max_depth; ++i) {
        nvtx::push(nvtx::k_default_domain, "level");
    }
    const std::uint32_t deepest = nvtx::current_path();
    nvtx::push(nvtx::k_default_domain, "beyond");
    nvtx::push(nvtx::k_default_domain, "beyond");
    EXPECT_EQ(nvtx::current_path(), deepest);
    EXPECT_EQ(nvtx::stats().too_deep, before + 2);
    nvtx::pop();
    nvtx::pop();
    nvtx::pop(); // back to k_max_depth - 1 ranges
    EXPECT_EQ(nvtx::depth(), nvtx::k_max_depth - 1);
    EXPECT_NE(nvtx::current_path(), deepest);
}

TEST(NvtxStack, TenThousandDistinctNamesStayDistinct) {
    const CleanStack clean;
    std::vector<std::uint32_t> ids;
    for (int i = 0; i < 10000; ++i) {
        const std::string name = "block" + std::to_string(i);
        nvtx::push(nvtx::k_default_domain, name);
        ids.push_back(nvtx::current_path());
        nvtx::pop();
    }
    for (int i = 0; i < 10000; i += 997) {
        EXPECT_EQ(nvtx::path_name(ids[i]), "block" + std::to_string(i));
        nvtx::push(nvtx::k_default_domain, "block" + std::to_string(i));
        EXPECT_EQ(nvtx::current_path(), ids[i]); // found again, not added twice
        nvtx::pop();
    }
    EXPECT_EQ(nvtx::stats().paths_dropped, 0u);
}

TEST(NvtxStack, EmitNvtxCallNumbersDoNotMakeNewPaths) {
    // torch.autograd.profiler.emit_nvtx numbers every operator call; kept, each training step
    // made new paths (tests/data/gpu/h100/torch/irf-1.txt: the 16,384-path cap in 21 steps).
    const CleanStack clean;
    nvtx::push(nvtx::k_default_domain, "aten::mm, seq = 4071, op_id = 9213, sizes = [[8, 512]]");
    const std::uint32_t first = nvtx::current_path();
    nvtx::pop();
    nvtx::push(nvtx::k_default_domain, "aten::mm, seq = 5380, op_id = 12001");
    EXPECT_EQ(nvtx::current_path(), first);
    nvtx::pop();
    EXPECT_EQ(nvtx::path_name(first), "aten::mm");
}

TEST(NvtxStack, StartEndRangesAreProcessWide) {
    const std::uint64_t id = nvtx::start_range(nvtx::domain("io"), "checkpoint");
    ASSERT_NE(id, 0u);
    std::vector<std::string> seen;
    std::thread([&seen] { seen = nvtx::open_ranges(); }).join();
    EXPECT_NE(std::find(seen.begin(), seen.end(), "io@checkpoint"), seen.end());
    std::thread([id] { nvtx::end_range(id); }).join(); // ended on another thread
    seen = nvtx::open_ranges();
    EXPECT_EQ(std::find(seen.begin(), seen.end(), "io@checkpoint"), seen.end());
    nvtx::end_range(id); // twice: ignored
}

TEST(NvtxStack, RegisteredStringsAreStableCopies) {
    std::string text = "registered-range";
    const std::string* s = nvtx::register_string(text);
    text = "changed";
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(*s, "registered-range");
    EXPECT_EQ(nvtx::register_string("registered-range"), s);
}

TEST(NvtxFilter, IncludeAndExcludeByPath) {
    const CleanStack clean;
    nvtx::set_stack({"train", "forward"});
    const std::uint32_t forward = nvtx::current_path();
    nvtx::set_stack({"train", "backward"});
    const std::uint32_t backward = nvtx::current_path();
    const NvtxFilter include("forward/", "");
    EXPECT_TRUE(include.allows(forward));
    EXPECT_FALSE(include.allows(backward));
    EXPECT_FALSE(include.allows(nvtx::k_root));
    EXPECT_TRUE(include.allows(forward)); // cached answer, same result
    const NvtxFilter exclude("", "train/backward/");
    EXPECT_TRUE(exclude.allows(forward));
    EXPECT_FALSE(exclude.allows(backward));
    EXPECT_TRUE(exclude.allows(nvtx::k_root));
    const NvtxFilter none("", "");
    EXPECT_TRUE(none.allows(backward));
}

TEST(NvtxFilter, StartEndExpressionFollowsOpenRanges) {
    const NvtxFilter filter("phase-2", "");
    EXPECT_FALSE(filter.allows(nvtx::k_root));
    const std::uint64_t id = nvtx::start_range(nvtx::k_default_domain, "phase-2");
    EXPECT_TRUE(filter.allows(nvtx::k_root));
    nvtx::end_range(id);
    EXPECT_FALSE(filter.allows(nvtx::k_root));
}

// IRF_NVTX_EXCLUDE with a start/end range (docs/regions.md, Filters): no launch is sampled while
// the range is open, on any thread, and launches are again once it ends.
TEST(NvtxFilter, StartEndExpressionExcludesWhileOpen) {
    const CleanStack clean;
    const NvtxFilter filter("", "checkpoint");
    EXPECT_TRUE(filter.allows(nvtx::k_root));
    const std::uint64_t id = nvtx::start_range(nvtx::k_default_domain, "checkpoint");
    EXPECT_FALSE(filter.allows(nvtx::k_root));
    nvtx::set_stack({"train"}); // a push/pop path does not escape it
    EXPECT_FALSE(filter.allows(nvtx::current_path()));
    nvtx::end_range(id);
    EXPECT_TRUE(filter.allows(nvtx::current_path()));
    EXPECT_TRUE(filter.allows(nvtx::k_root));
}

model::Profile run_collector(const config::Config& c) {
    Collector collector(c);
    std::uint64_t id = 0;
    const auto launch = [&](const std::vector<std::string>& stack, double ns) {
        nvtx::set_stack(stack);
        LaunchEvent e;
        e.function = reinterpret_cast<const void*>(std::uintptr_t{7});
        e.mangled = "_Z4gemmv";
        e.correlation_id = ++id;
        if (profiles(collector.on_launch(e))) { // a standard sample, by replay or by launches
            collector.on_counters({e.correlation_id, {{"inst_warp", 100}}, 1});
        }
        collector.on_duration({e.correlation_id, 0, static_cast<std::uint64_t>(ns)});
    };
    launch({"step", "fwd"}, 500); // cold: provisional sample
    launch({"step", "fwd"}, 100); // warm sample 1
    launch({"step", "bwd"}, 200); // warm sample 2
    launch({"step", "bwd"}, 300); // timed only (IRF_SAMPLES = 2)
    launch({}, 50);               // outside every range
    nvtx::set_stack({});
    model::Profile p;
    collector.fill_profile(p);
    return p;
}

TEST(NvtxCollector, LaunchesAreAttributedToTheirThreadsPath) {
    config::Config c;
    c.samples = 2;
    const model::Profile p = run_collector(c);
    ASSERT_EQ(p.kernels.size(), 1u);
    const auto& regions = p.kernels[0].regions; // outside-every-range launches are not listed
    ASSERT_EQ(regions.size(), 2u);
    const auto& fwd = regions[0].path == "step/fwd" ? regions[0] : regions[1];
    const auto& bwd = regions[0].path == "step/fwd" ? regions[1] : regions[0];
    EXPECT_EQ(fwd.path, "step/fwd");
    EXPECT_EQ(fwd.launches, 2u);
    // Profiled launches count at the unprofiled warm mean of their region, else of the kernel,
    // not at their replay passes: fwd has none of its own, so 2 x (300 + 50) / 2 = 350; bwd
    // = 300 + its own mean 300 = 600.
    EXPECT_EQ(fwd.time_ns, 350);
    EXPECT_EQ(fwd.profiled_launches, 1u); // the warm sample; the cold one is dropped
    EXPECT_EQ(bwd.launches, 2u);
    EXPECT_EQ(bwd.time_ns, 600);
    EXPECT_EQ(bwd.profiled_launches, 1u);
    // The kernel's total is the sum over its regions and the launch outside them: 1000.
    EXPECT_EQ(p.kernels[0].time_ns.total, 350 + 600 + 50);
    ASSERT_EQ(p.regions.size(), 2u);
    EXPECT_EQ(p.regions[0].path, "step/bwd"); // 600 ns > 350 ns
    EXPECT_EQ(p.regions[0].kernels, 1u);
}

TEST(NvtxCollector, IncludeFilterSamplesOnlyInsideMatchingRangesButTimesAll) {
    config::Config c;
    c.samples = 2;
    c.nvtx_include = "bwd/";
    const model::Profile p = run_collector(c);
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].launches, 5u); // all still counted
    // All five timed: 500 + 100 + 200 + 300 + 50; the two bwd launches ran under replay and bwd
    // has no other launch, so they count at the kernel's unprofiled warm mean (100 + 50) / 2 =
    // 75: 500 + 100 + 50 + 2 x 75 = 800.
    EXPECT_EQ(p.kernels[0].time_ns.total, 800);
    EXPECT_EQ(p.kernels[0].profiled_launches, 2u); // both bwd launches, nothing else
    for (const auto& r : p.kernels[0].regions) {
        EXPECT_EQ(r.profiled_launches, r.path == "step/bwd" ? 2u : 0u) << r.path;
    }
}

} // namespace
} // namespace test_nvtx_stack
} // namespace irf::intercept

namespace irf::intercept::nvtx {
namespace test_nvtx_stack {
namespace {

// A fork while another thread holds the registry's lock (registering a new path, domain or
// range): the child's first new path must not hang on a lock no thread of it will release
// (issue 51 A10, the review's L1). The child is given 10 s; it takes microseconds.
TEST(NvtxFork, AChildForkedWhileAnotherThreadRegistersDoesNotHang) {
    std::atomic<bool> held{false};
    std::thread holder([&held] {
        with_registry_locked_for_test([&held] {
            held = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        });
    });
    while (!held) {
        std::this_thread::yield();
    }
    int report[2] = {-1, -1};
    ASSERT_EQ(::pipe(report), 0);
    const pid_t child = fork();
    if (child == 0) {
        (void)push(k_default_domain, "a_path_only_the_child_makes");
        const char done = pop() == 0 ? 'k' : 'x';
        (void)::write(report[1], &done, 1);
        // SIGKILL, not exit: ThreadSanitizer would count the parent's holder thread, which
        // the child inherits unjoined, as a leak and fail the exit status.
        ::raise(SIGKILL);
    }
    ::close(report[1]);
    holder.join();
    ASSERT_GT(child, 0);
    int status = 0;
    pid_t done = 0;
    for (int waited_ms = 0; waited_ms < 10000 && done == 0; waited_ms += 10) {
        done = waitpid(child, &status, WNOHANG);
        if (done == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    if (done == 0) {
        kill(child, SIGKILL);
        (void)waitpid(child, &status, 0);
        ::close(report[0]);
        FAIL() << "the forked child hung at its first NVTX push";
    }
    char result = 0;
    EXPECT_EQ(::read(report[0], &result, 1), 1);
    ::close(report[0]);
    EXPECT_EQ(result, 'k') << "the child's pop found no range";
}

} // namespace
} // namespace test_nvtx_stack
} // namespace irf::intercept::nvtx
