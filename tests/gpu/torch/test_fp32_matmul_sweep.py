# SPDX-License-Identifier: Apache-2.0
"""The FP32 matmul sweep's arithmetic (fp32_matmul_sweep.py); no torch, no GPU. Run by ctest as
unit.fp32_matmul_sweep."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fp32_matmul_sweep as sweep  # noqa: E402


class Sizes(unittest.TestCase):
    def test_the_sweep_runs_from_256_to_6888_a_quarter_octave_apart(self):
        s = sweep.sizes()
        self.assertEqual(s[0], 256)
        # 256 x 2^(19/4) = 6888.6, the last at most 6888; 20 sizes in all.
        self.assertEqual(s[-1], 6888)
        self.assertEqual(len(s), 20)
        # 256 x 2^(1/4) = 304.4, 256 x 2^(1/2) = 362.0, 256 x 2^(3/4) = 430.5; 512 at k = 4.
        self.assertEqual(s[1:5], [304, 362, 430, 512])

    def test_a_range_that_holds_one_size(self):
        self.assertEqual(sweep.sizes(1000, 1100), [1000])


class Rates(unittest.TestCase):
    def test_two_n_cubed_flop_over_the_time(self):
        # 4096: 2 x 4096^3 = 1.374e11 flop in 2.68 ms = 51.28 TFLOPS.
        self.assertAlmostEqual(sweep.tflops(4096, 2.68e-3), 51.2834, places=3)

    def test_a_time_of_zero_is_refused(self):
        with self.assertRaises(ValueError):
            sweep.tflops(256, 0.0)

    def test_the_best_rate_and_its_size(self):
        self.assertEqual(sweep.best({1024: 12.0, 4096: 14.5, 6888: 14.1}), (4096, 14.5))
        # a tie goes to the smaller size
        self.assertEqual(sweep.best({2048: 3.0, 1024: 3.0}), (1024, 3.0))
        with self.assertRaises(ValueError):
            sweep.best({})


if __name__ == "__main__":
    unittest.main()
