# SPDX-License-Identifier: Apache-2.0
"""irfplot.units prints times as common/time_format.hpp does: the same hand-picked values as
tests/unit/common/test_time_format.cpp, so a figure and irf-report never disagree."""
import math
import unittest

from irfplot.units import format_significant, format_time, speedup_ticks


class TimeFormat(unittest.TestCase):
    def test_same_strings_as_the_cpp_formatter(self):
        cases = [(0, "0 ns"), (1, "1.00 ns"), (12, "12.0 ns"), (999, "999 ns"),
                 (999.4, "999 ns"), (999.5, "1.00 us"),  # would round to 1000 ns
                 (1000, "1.00 us"), (999_499, "999 us"), (999_500, "1.00 ms"),
                 (1e6, "1.00 ms"), (999.4e6, "999 ms"), (999.5e6, "1.00 s"), (1e9, "1.00 s"),
                 (1234, "1.23 us"), (9994, "9.99 us"), (9996, "10.0 us"), (50550, "50.5 us"),
                 (99_940, "99.9 us"), (99_960, "100 us"), (231_800, "232 us"),
                 (1.5e6, "1.50 ms"), (61.26e9, "61.3 s"), (3600e9, "3600 s"),
                 (-1500, "-1.50 us"), (math.nan, "-"), (math.inf, "-")]
        for ns, text in cases:
            with self.subTest(ns=ns):
                self.assertEqual(format_time(ns), text)

    def test_significant_digits(self):
        cases = [(0.41666, "0.417"), (0.03125, "0.0312"), (0.99949, "0.999"), (0.9996, "1.00"),
                 (9.996, "10.0"), (99.96, "100"), (435.6, "436"), (6094.72, "6095"),
                 (-50.15, "-50.1"), (0, "0"), (math.inf, "-")]
        for value, text in cases:
            with self.subTest(value=value):
                self.assertEqual(format_significant(value), text)


if __name__ == "__main__":
    unittest.main()


class SpeedupTicks(unittest.TestCase):
    def test_close_ticks_are_left_out(self):
        # 0.15x to 3x: ln(20) = 3.0 of axis; 0.2 and 0.25 are ln(1.25) = 0.22 apart, 7% of it
        # (< 9%): 0.25 goes. 4 and 5 are out of range; 1, 0.5, 2, 0.2 are kept, 0.8 is 7%
        # from 1 and goes, 1.25 7% too, 1.5 is ln(2/1.5) = 0.29 (9.6%) from 2: kept; 3 is
        # 13.5% from 2: kept; 0.67 is ln(0.67/0.5) = 0.29 (9.8%) from 0.5: kept.
        self.assertEqual(speedup_ticks(0.15, 3.0), [0.2, 0.5, 0.67, 1, 1.5, 2, 3])

    def test_a_narrow_range_gets_fine_ticks(self):
        # 0.7x to 1.6x: ln(2.29) = 0.83; the 1-2-5 ladder has only 1 in range, so 0.8, 1.25
        # and 1.5 are added (each at least 0.075 from the others).
        self.assertEqual(speedup_ticks(0.7, 1.6), [0.8, 1, 1.25, 1.5])
