// SPDX-License-Identifier: Apache-2.0
// Every driver call that can write device memory from a stream is held off during a sample or
// deliberately listed as harmless (issue 51 A3): the test reads the toolkit's
// cupti_driver_cbid.h, so a CUDA release that adds such a call fails here until it is classified.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/cupti/guarded_cbids.hpp"

namespace irf::intercept::cupti {
namespace test_guarded_cbids {
namespace {

/// Every `CUPTI_DRIVER_TRACE_CBID_<name> = <number>` of the header, by name.
std::map<std::string, CUpti_CallbackId> driver_cbids(const std::string& path) {
    std::ifstream in(path);
    std::map<std::string, CUpti_CallbackId> cbids;
    const std::string prefix = "CUPTI_DRIVER_TRACE_CBID_";
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t at = line.find(prefix);
        const std::size_t eq = line.find('=');
        if (at == std::string::npos || eq == std::string::npos || eq < at) {
            continue;
        }
        std::string name = line.substr(at + prefix.size(), eq - at - prefix.size());
        name.erase(name.find_last_not_of(' ') + 1);
        std::istringstream number(line.substr(eq + 1));
        unsigned long value = 0;
        if (number >> value) {
            cbids[name] = static_cast<CUpti_CallbackId>(value);
        }
    }
    return cbids;
}

/// The families of calls that write, discard or wait on device memory from a stream (by name
/// prefix, or "Decompress" in a cuMem name): each member must be guarded or listed harmless.
bool in_a_device_writing_family(const std::string& name) {
    static const std::vector<std::string> k_prefixes = {"cuMemcpy",
                                                        "cuMemset",
                                                        "cuLaunchHostFunc",
                                                        "cuStreamWriteValue",
                                                        "cuStreamBatchMemOp",
                                                        "cuStreamWaitValue",
                                                        "cuMemDiscard",
                                                        "cuMemPrefetch",
                                                        "cuSignalExternalSemaphores",
                                                        "cuWaitExternalSemaphores"};
    for (const std::string& prefix : k_prefixes) {
        if (name.rfind(prefix, 0) == 0) {
            return true;
        }
    }
    return name.rfind("cuMem", 0) == 0 && name.find("Decompress") != std::string::npos;
}

TEST(GuardedCbids, EveryDeviceWritingCallIsGuardedOrListedHarmless) {
    const auto cbids = driver_cbids(IRF_CUPTI_DRIVER_CBID_H);
    ASSERT_GT(cbids.size(), 700u) << "could not read " << IRF_CUPTI_DRIVER_CBID_H;
    std::vector<std::string> unclassified;
    std::size_t family = 0;
    for (const auto& [name, cbid] : cbids) {
        if (!in_a_device_writing_family(name)) {
            continue;
        }
        ++family;
        if (guarded_call(cbid) != GuardedCall::device_write && !listed_harmless(cbid)) {
            unclassified.push_back(name);
        }
    }
    EXPECT_GT(family, 120u); // the copies and sets alone are over a hundred
    EXPECT_TRUE(unclassified.empty())
        << "add to k_device_writes or k_harmless (intercept/cupti/guarded_cbids.cpp): "
        << ::testing::PrintToString(unclassified);
}

TEST(GuardedCbids, TheStreamMemoryOperationsOfTheReviewAreHeldOff) {
    const auto cbids = driver_cbids(IRF_CUPTI_DRIVER_CBID_H);
    for (const char* name :
         {"cuStreamWriteValue32", "cuStreamWriteValue64_v2_ptsz", "cuStreamBatchMemOp",
          "cuStreamBatchMemOp_v2_ptsz", "cuMemBatchDecompressAsync", "cuMemDiscardBatchAsync_ptsz",
          "cuMemDiscardAndPrefetchBatchAsync"}) {
        ASSERT_EQ(cbids.count(name), 1u) << name;
        EXPECT_EQ(guarded_call(cbids.at(name)), GuardedCall::device_write) << name;
    }
    // A wait writes nothing: it is listed, not held off.
    EXPECT_EQ(guarded_call(cbids.at("cuStreamWaitValue32")), GuardedCall::none);
    EXPECT_TRUE(listed_harmless(cbids.at("cuStreamWaitValue32")));
}

// With IRF_SAMPLES=0 no sample can start: captures are still watched (a captured launch is not
// a launch), device writes are not (issue 55 item 2).
TEST(GuardedCbids, WithoutSamplesOnlyCapturesAreWatched) {
    const std::vector<CUpti_CallbackId> all = guarded_cbids(true);
    const std::vector<CUpti_CallbackId> captures = guarded_cbids(false);
    std::size_t writes = 0;
    for (const CUpti_CallbackId cbid : all) {
        const bool write = guarded_call(cbid) == GuardedCall::device_write;
        writes += write ? 1 : 0;
        const bool kept = std::find(captures.begin(), captures.end(), cbid) != captures.end();
        EXPECT_EQ(kept, !write) << cbid;
    }
    EXPECT_GT(writes, 20u);
    EXPECT_EQ(captures.size() + writes, all.size());
}

TEST(GuardedCbids, NothingIsBothGuardedAndHarmless) {
    for (const CUpti_CallbackId cbid : guarded_cbids()) {
        EXPECT_FALSE(listed_harmless(cbid)) << cbid;
    }
}

} // namespace
} // namespace test_guarded_cbids
} // namespace irf::intercept::cupti
