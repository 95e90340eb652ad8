// SPDX-License-Identifier: Apache-2.0
// Kernel symbol demangling.
#include <gtest/gtest.h>

#include "common/demangle.hpp"

namespace irf::common {
namespace {

TEST(Demangle, CppPlainAndMissingNames) {
    EXPECT_EQ(demangle("_Z4axpyfPKfPf"), "axpy(float, float const*, float*)");
    EXPECT_EQ(demangle("_Z4gemmIfEvPKT_S2_PS0_i"),
              "void gemm<float>(float const*, float const*, float*, int)");
    EXPECT_EQ(demangle("plain_c_kernel"), "plain_c_kernel");
    EXPECT_EQ(demangle(nullptr), "<unknown>");
    EXPECT_EQ(demangle(""), "<unknown>");
}

} // namespace
} // namespace irf::common
