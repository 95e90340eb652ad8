// SPDX-License-Identifier: Apache-2.0
// common/time_format: one duration format for every tool; three significant digits, the unit
// chosen after rounding so no value prints as "1000 ns" or "10.00 us".
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "common/time_format.hpp"

namespace irf::test {
namespace test_time_format {
namespace {

using common::format_significant;
using common::format_time;

TEST(SignificantDigits, NoExponentFromOneUp) {
    EXPECT_EQ(format_significant(0.41666), "0.417");
    EXPECT_EQ(format_significant(0.03125), "0.0312"); // exact binary tie: rounds to even
    EXPECT_EQ(format_significant(0.99949), "0.999");
    EXPECT_EQ(format_significant(0.9996), "1.00"); // rounds up to 1: two decimals from here
    EXPECT_EQ(format_significant(9.996), "10.0");
    EXPECT_EQ(format_significant(99.96), "100");
    EXPECT_EQ(format_significant(435.6), "436");
    EXPECT_EQ(format_significant(6094.72), "6095"); // no "6.09e+03"
    EXPECT_EQ(format_significant(-50.15), "-50.1"); // -50.15 is stored just above: rounds down
    EXPECT_EQ(format_significant(0), "0");
    EXPECT_EQ(format_significant(std::numeric_limits<double>::infinity()), "-");
    // Issue #39 item 11: %.0f of 1e308 was a 309-digit cell; from 1e15 on an exponent.
    EXPECT_EQ(format_significant(999999999999999.0), "999999999999999");
    EXPECT_EQ(format_significant(1e308), "1e+308");
    EXPECT_EQ(format_time(1e308), "1e+299 s");
}

TEST(TimeFormat, Nanoseconds) {
    EXPECT_EQ(format_time(0), "0 ns");
    EXPECT_EQ(format_time(1), "1.00 ns");
    EXPECT_EQ(format_time(12), "12.0 ns");
    EXPECT_EQ(format_time(999), "999 ns");
    EXPECT_EQ(format_time(999.4), "999 ns"); // rounds down: stays in ns
}

TEST(TimeFormat, UnitBoundariesRoundUpIntoTheNextUnit) {
    EXPECT_EQ(format_time(999.5), "1.00 us"); // would round to 1000 ns
    EXPECT_EQ(format_time(1000), "1.00 us");
    EXPECT_EQ(format_time(999'499), "999 us");  // 999.499 us
    EXPECT_EQ(format_time(999'500), "1.00 ms"); // 999.5 us rounds to 1000 us
    EXPECT_EQ(format_time(1e6), "1.00 ms");
    EXPECT_EQ(format_time(999.4e6), "999 ms");
    EXPECT_EQ(format_time(999.5e6), "1.00 s");
    EXPECT_EQ(format_time(1e9), "1.00 s");
}

TEST(TimeFormat, ThreeSignificantDigitsInsideAUnit) {
    EXPECT_EQ(format_time(1234), "1.23 us");
    EXPECT_EQ(format_time(9994), "9.99 us");  // 9.994 us
    EXPECT_EQ(format_time(9996), "10.0 us");  // 9.996 us rounds to 10.0, not 10.00
    EXPECT_EQ(format_time(50550), "50.5 us"); // 50.55 is stored just below: rounds down
    EXPECT_EQ(format_time(99'940), "99.9 us");
    EXPECT_EQ(format_time(99'960), "100 us"); // 99.96 us rounds to 100, not 100.0
    EXPECT_EQ(format_time(231'800), "232 us");
    EXPECT_EQ(format_time(1.5e6), "1.50 ms");
    EXPECT_EQ(format_time(61.26e9), "61.3 s");
    EXPECT_EQ(format_time(3600e9), "3600 s"); // seconds is the largest unit
}

TEST(TimeFormat, SignAndNonFinite) {
    EXPECT_EQ(format_time(-1500), "-1.50 us");
    EXPECT_EQ(format_time(std::numeric_limits<double>::quiet_NaN()), "-");
    EXPECT_EQ(format_time(std::numeric_limits<double>::infinity()), "-");
}

} // namespace
} // namespace test_time_format
} // namespace irf::test
