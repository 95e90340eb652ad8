# SPDX-License-Identifier: Apache-2.0
"""unit tests of tests/gpu/kernelbench_check.py: a table row from check-projection's JSON, what
counts as worse, and our own times against the published ones (values worked out here)."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import kernelbench_check as kc  # noqa: E402


def check(mape, naive, count=4, inside=0.5):
    summary = {"count": count, "mape": mape, "weighted_mape": mape / 2, "inside_share": inside,
               "weighted_inside": inside, "mape_sm_clock": naive[0], "mape_dram": naive[1],
               "mape_by_bound": naive[2]}
    fast = dict(summary, count=1, mape=0.3)
    return {"headline": summary, "launch_bound": fast, "left_out": ["a: why", "b: why"]}


class RowAndWorse(unittest.TestCase):
    def test_row_beats_all_only_under_every_naive_scaling(self):
        row = kc.row_of("t", check(0.10, [0.2, 0.3, 0.11]))
        self.assertTrue(row["beats_all"])
        self.assertEqual(row["left_out"], 2)
        self.assertEqual(row["launch_bound"], 1)
        self.assertFalse(kc.row_of("t", check(0.12, [0.2, 0.3, 0.11]))["beats_all"])
        self.assertFalse(kc.row_of("t", check(0.0, [0.2, 0.3, 0.1], count=0))["beats_all"])

    def test_worse_names_each_figure_that_moved_past_the_tolerance(self):
        expected = kc.row_of("t", check(0.10, [0.2, 0.3, 0.11]))
        self.assertEqual(kc.worse(expected, expected), "")
        # MAPE 10% -> 10.1%: inside the 0.2-point tolerance
        self.assertEqual(kc.worse(kc.row_of("t", check(0.101, [0.2, 0.3, 0.11])), expected), "")
        # 10% -> 12%: MAPE and the time-weighted MAPE (5% -> 6%) worse, and it lost to by-bound
        why = kc.worse(kc.row_of("t", check(0.12, [0.2, 0.3, 0.11])), expected)
        self.assertEqual(why, "mape 10.0% -> 12.0%; weighted_mape 5.0% -> 6.0%; "
                              "no longer beats every naive scaling")
        why = kc.worse(kc.row_of("t", check(0.10, [0.2, 0.3, 0.11], inside=0.4)), expected)
        self.assertEqual(why, "inside 50.0% -> 40.0%")
        why = kc.worse(kc.row_of("t", check(0.10, [0.2, 0.3, 0.11], count=3)), expected)
        self.assertEqual(why, "operators 4 -> 3")
        self.assertEqual(kc.worse({"target": "t", "error": "no ceilings"}, expected),
                         "no check: no ceilings")


class OursVsPublished(unittest.TestCase):
    def test_ratios_against_the_published_means(self):
        published = {"gpus": {"g": {"times_ms": {"a.py": {"mean": 2.0}, "b": {"mean": 1.0},
                                                 "c": {"mean": 1.0}}}}}
        ours = {"results": [{"name": "a", "mean_ms": 2.1}, {"name": "b", "mean_ms": 0.5},
                            {"name": "d", "mean_ms": 1.0}]}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(ours, f)
        try:
            result = kc.ours_vs_published(f.name, published, "g")
        finally:
            os.unlink(f.name)
        self.assertEqual(result["compared"], 2)  # a (via a.py) and b; d is not published
        self.assertAlmostEqual(result["median_ratio"], (1.05 + 0.5) / 2)
        self.assertAlmostEqual(result["mape"], (0.05 + 0.5) / 2)
        self.assertAlmostEqual(result["within_10pct"], 0.5)  # 1.05 is within 10%, 0.5 is not



def operator(name, recorded, measured, predicted, low=0.0, high=0.0):
    return {"name": name, "recorded_ns": recorded, "measured_ns": measured,
            "predicted_ns": predicted, "low_ns": low, "high_ns": high,
            "sm_clock_ns": measured * 1.5, "dram_ns": measured * 2, "by_bound_ns": measured}


class Comparable(unittest.TestCase):
    def test_only_kernel_filled_calls_that_agree_with_the_published_time_count(self):
        # our call times (median, ms): a 100 us, b 100 us, c 100 us, d 10 us
        ours = {"results": [{"name": n, "median_ms": ms} for n, ms in
                            (("a", 0.1), ("b", 0.1), ("c", 0.1), ("d", 0.01))]}
        check = {"operators": [
            operator("a", 90e3, 110e3, 0),   # kernels 90% of the call, published 1.1x: kept
            operator("b", 50e3, 100e3, 0),   # kernels 50% of the call: host-bound, out
            operator("c", 95e3, 30e3, 0),    # published 0.3x ours: other kernels ran, out
            operator("d", 9e3, 12e3, 0)]}    # published 12 us: launch-bound, out
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(ours, f)
        try:
            self.assertEqual(kc.comparable_names(f.name, check), {"a"})
        finally:
            os.unlink(f.name)

    def test_a_comparable_row_is_worked_out_over_those_operators_only(self):
        check = {"operators": [operator("a", 1, 100.0, 110.0, 90, 120),
                               operator("b", 1, 200.0, 140.0, 210, 250),
                               operator("x", 1, 100.0, 900.0)]}
        row = kc.comparable_row("t", check, {"a", "b"})
        self.assertEqual(row["operators"], 2)
        self.assertAlmostEqual(row["mape"], (0.10 + 0.30) / 2)       # 20%
        self.assertAlmostEqual(row["weighted_mape"], (10 + 60) / 300)  # 23.3%
        self.assertAlmostEqual(row["inside"], 0.5)                    # a inside; b (200) below 210-250
        self.assertAlmostEqual(row["mape_sm_clock"], 0.5)
        self.assertAlmostEqual(row["mape_by_bound"], 0.0)
        self.assertFalse(row["beats_all"])                            # by-bound is exact here
        self.assertEqual(kc.comparable_row("t", {"error": ["no"]}, set())["error"], "no")
        # none left: no figures, not 0% ones
        self.assertEqual(kc.comparable_row("t", check, {"y"}),
                         {"target": "t", "error": "no comparable operators"})

    def test_names_without_leaves_out_those_the_regex_finds(self):
        names = {"75_conv_transposed_2D", "63_conv_standard_2D", "1_Square"}
        self.assertEqual(kc.names_without(names, "conv_transposed"),
                         {"63_conv_standard_2D", "1_Square"})
        self.assertEqual(kc.names_without(names, "^1_"), names - {"1_Square"})


if __name__ == "__main__":
    unittest.main()
