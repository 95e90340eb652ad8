// SPDX-License-Identifier: Apache-2.0
// Kernel symbol demangling.
#include <gtest/gtest.h>

#include "common/demangle.hpp"

namespace irf::common {
namespace test_demangle {
namespace {

TEST(Demangle, CppPlainAndMissingNames) {
    EXPECT_EQ(demangle("_Z4axpyfPKfPf"), "axpy(float, float const*, float*)");
    EXPECT_EQ(demangle("_Z4gemmIfEvPKT_S2_PS0_i"),
              "void gemm<float>(float const*, float const*, float*, int)");
    EXPECT_EQ(demangle("plain_c_kernel"), "plain_c_kernel");
    EXPECT_EQ(demangle(nullptr), "<unknown>");
    EXPECT_EQ(demangle(""), "<unknown>");
}

TEST(Demangle, ExternCNamesStayAsTheyAre) {
    // Without the "_Z" check __cxa_demangle reads these as type encodings.
    EXPECT_EQ(demangle("f"), "f");     // not "float"
    EXPECT_EQ(demangle("d"), "d");     // not "double"
    EXPECT_EQ(demangle("Sa"), "Sa");   // not "std::allocator"
    EXPECT_EQ(demangle("_Zx"), "_Zx"); // "_Z" but not a valid encoding: kept
}

} // namespace
} // namespace test_demangle
} // namespace irf::common
