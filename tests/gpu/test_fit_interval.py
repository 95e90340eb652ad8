# SPDX-License-Identifier: Apache-2.0
"""scripts/fit_interval.py's arithmetic (issue 54 item 6): the split conformal ends, the fit per
class (compute capability x confidence; the envelope of each family's ends), the held-out coverage per family, the coverage per set
and the fitted block it writes, on hand-made residuals."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import fit_interval  # noqa: E402


SAME_LOW, CROSS_LOW = (True, False), (False, False)  # classes: (same compute capability, high)
SAME_HIGH = (True, True)


class SpreadTest(unittest.TestCase):
    def test_ends_are_the_conformal_ranks(self):
        # n = 39: rank ceil(40 x 0.95) = 38, so the 2nd smallest and the 38th (2nd largest).
        values = [float(v) for v in range(1, 40)]
        self.assertEqual(fit_interval.spread(values), (2.0, 38.0))
        # n = 19: rank ceil(20 x 0.95) = 19: the extremes.
        self.assertEqual(fit_interval.spread([float(v) for v in range(1, 20)]), (1.0, 19.0))

    def test_too_few_residuals_give_no_spread(self):
        # n = 18: rank ceil(19 x 0.95) = 19 > 18: no end holds 95% with confidence.
        self.assertIsNone(fit_interval.spread([1.0] * 18))

    def test_fit_and_coverage_by_class(self):
        rows = [("gpuperfpredict a", SAME_LOW, float(v)) for v in range(1, 40)]
        rows += [("gpuperfpredict b", CROSS_LOW, v / 10) for v in range(1, 20)]
        rows += [("gpuperfpredict c", SAME_HIGH, 1 + v / 100) for v in range(1, 20)]
        spreads = fit_interval.fit(rows)
        self.assertEqual(spreads[SAME_LOW], (2.0, 38.0, 39))
        self.assertEqual(spreads[CROSS_LOW], (0.1, 1.9, 19))
        # The high-confidence class has its own ends: 1.01 .. 1.19 (n = 19: the extremes).
        self.assertEqual(spreads[SAME_HIGH], (1.01, 1.19, 19))
        # A class without residuals takes its compute-capability class's other confidence.
        self.assertEqual(spreads[(False, True)], spreads[CROSS_LOW])
        cover = fit_interval.coverage(rows, spreads)
        self.assertEqual(cover["gpuperfpredict a"], (39, 37 / 39))
        self.assertEqual(cover["gpuperfpredict b"], (19, 1.0))
        self.assertEqual(cover["gpuperfpredict c"], (19, 1.0))

    def test_coverage_is_the_shipped_intervals_the_union_with_the_models_own(self):
        # Band 0.5 .. 2.0. Residual 3.0 is outside it but inside a model's own interval reaching
        # 4 x the point; 0.3 is inside an own interval from 0.25; 0.1 is outside both.
        spreads = {SAME_LOW: (0.5, 2.0, 40)}
        rows = [("gpuperfpredict a", SAME_LOW, 3.0, (0.9, 4.0)),
                ("gpuperfpredict a", SAME_LOW, 0.3, (0.25, 1.1)),
                ("gpuperfpredict a", SAME_LOW, 0.1, (0.25, 1.1)),
                ("gpuperfpredict a", SAME_LOW, 1.5, None)]
        self.assertEqual(fit_interval.coverage(rows, spreads)["gpuperfpredict a"], (4, 3 / 4))
        # The band alone holds only 1.5.
        self.assertEqual(fit_interval.coverage(rows, spreads, own=False)["gpuperfpredict a"],
                         (4, 1 / 4))
        # The own interval as ratios to the point; None where check-projection wrote none.
        self.assertEqual(fit_interval.own_interval(200.0, 100.0, 800.0), (0.5, 4.0))
        self.assertIsNone(fit_interval.own_interval(200.0, None, None))

    def test_the_envelope_of_two_families_and_each_held_out(self):
        # gpuperfpredict: 1..19 (n = 19, rank 19: ends 1 and 19); KernelBench: 0.1..3.9 (n = 39,
        # rank 38: ends 0.2 and 3.8). The envelope takes the lower low and the higher high.
        rows = [("gpuperfpredict p", SAME_LOW, float(v)) for v in range(1, 20)]
        rows += [("kernelbench k", SAME_LOW, v / 10) for v in range(1, 40)]
        # Five H100 -> H200 residuals are too few for ends of their own: left out of the envelope.
        rows += [("h100->h200 r", SAME_LOW, 100.0)] * 5
        self.assertEqual(fit_interval.fit(rows)[SAME_LOW], (0.2, 19.0, 58))
        held = fit_interval.held_out(rows)
        # gpuperfpredict with KernelBench's 0.2..3.8 (the recordings give no ends): 1, 2, 3 of 19.
        self.assertEqual(held["gpuperfpredict"]["gpuperfpredict p"], (19, 3 / 19))
        # KernelBench with gpuperfpredict's 1..19: 1.0..3.9, 30 of 39.
        self.assertEqual(held["KernelBench"]["kernelbench k"], (39, 30 / 39))
        # The recordings with the envelope 0.2..19 of the other two: none of 5.
        self.assertEqual(held["H100 -> H200 recordings"]["h100->h200 r"], (5, 0.0))

    def test_held_out_coverage_pooled_per_family_and_its_floors(self):
        folds = {"gpuperfpredict": {"gpuperfpredict a": (30, 0.9), "gpuperfpredict b": (10, 0.5)},
                 "magus": {"magus m": (20, 0.95)}, "KernelBench": {}}
        # gpuperfpredict: (27 + 5) / 40 = 0.8; magus 0.95; KernelBench has no set: left out.
        self.assertEqual(fit_interval.family_coverage(folds),
                         {"gpuperfpredict": (40, 0.8), "magus": (20, 0.95)})
        # Each family once: (0.8 + 0.95) / 2 = 0.875, not the kernels' (32 + 19) / 60 = 0.85.
        self.assertAlmostEqual(fit_interval.mean_family_coverage(folds), 0.875)
        folds["KernelBench"] = {"kernelbench k": (10, 0.9)}
        failures = fit_interval.check_floors(folds, 0.85, 0.9)
        # gpuperfpredict 0.8 < 0.85; the recordings have no set; mean (0.8 + 0.95 + 0.9) / 3.
        self.assertEqual(failures, [
            "gpuperfpredict: 80.0% inside held out, under the floor of 85%",
            "H100 -> H200 recordings: no set of it was checked",
            "mean held-out coverage over the families 88.3% is under 90%"])
        # With every family at its floor or above and the mean at 90%, nothing fails.
        folds = {fam: {fam + " s": (10, share)} for fam, share in
                 zip(fit_interval.FAMILIES, (0.85, 0.9, 0.95, 0.9))}
        self.assertEqual(fit_interval.check_floors(folds, 0.85, 0.9), [])

    def test_the_fitted_block_replaces_only_itself(self):
        text = "x\n// BEGIN fitted (old)\nconstexpr int a = 1;\n// END fitted\ny\n"
        block = fit_interval.fitted_block({SAME_HIGH: (0.9, 1.2, 30), SAME_LOW: (0.5, 2.0, 40),
                                           (False, True): (0.4, 2.5, 50),
                                           CROSS_LOW: (0.25, 4.0, 90)})
        out = fit_interval.replace_block(text, block)
        self.assertTrue(out.startswith("x\n// BEGIN fitted") and out.endswith("// END fitted\ny\n"))
        self.assertIn("constexpr ResidualSpread s_same_cc_high{0.9000, 1.2000, 30};", out)
        self.assertIn("constexpr ResidualSpread s_same_cc_low{0.5000, 2.0000, 40};", out)
        self.assertIn("constexpr ResidualSpread s_cross_cc_high{0.4000, 2.5000, 50};", out)
        self.assertIn("constexpr ResidualSpread s_cross_cc_low{0.2500, 4.0000, 90};", out)


if __name__ == "__main__":
    unittest.main()
