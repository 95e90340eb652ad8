# SPDX-License-Identifier: Apache-2.0
"""irf-plot --trajectory: each kernel's points at their true positions, the verdict in the
legend, and bad trajectory files refused in one line (docs/trajectories.md)."""
import json
import os
import tempfile
import unittest

from plot_support import have_matplotlib, run_plot, write_json


def trajectory():
    """Two kernels on a 100-SM GPU (1000 warp GIPS, HBM 100 GTXN/s, 19500 GFLOP/s FP32)."""
    def point(sms, gips, ii, gflops=None, ai=None):
        return {"sms": sms, "time_ns": 1e6 / gips, "gips_warp": gips, "gflops": gflops,
                "ii": {"l1": None, "l2": None, "hbm": ii},
                "ai": {"l1": None, "l2": None, "hbm": ai}, "ceiling_gips": None,
                "counters_sms": 100}
    return {"schema": "irf.trajectory/v1", "sms": 100,
            "ceilings": {"warp_gips": 1000, "gtxn_per_s": {"hbm": 100, "l2": 400},
                         "gflops": {"fp32_fma": 19500}},
            "kernels": [
                {"name": "triad", "points": [point(25, 25, 2.0, 50, 0.5), point(100, 100, 2.0, 200, 0.5)],
                 "verdict": {"kind": "ideal"}},
                {"name": "gather", "points": [point(50, 40, 1.0), point(100, 45, 0.6)],
                 "verdict": {"kind": "degrading_intensity"}}]}


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class TrajectoryFigures(unittest.TestCase):
    def test_points_sit_at_their_intensity_and_performance(self):
        with tempfile.TemporaryDirectory() as d:
            src = write_json(os.path.join(d, "t.json"), trajectory())
            dump = os.path.join(d, "data.json")
            code, err, _ = run_plot(["--trajectory", src, "-o", d, "--format", "png",
                                     "--dump-data", dump])
            self.assertEqual(code, 0, err)
            with open(dump, encoding="utf-8") as f:
                data = json.load(f)
            irm = {s["kernel"]: s for s in data["trajectory_instruction_roofline"]}
            # x = HBM warp instructions per transaction, y = warp GIPS, as in the file.
            self.assertEqual(irm["triad"]["x"], [2.0, 2.0])
            self.assertEqual(irm["triad"]["y"], [25, 100])
            self.assertEqual(irm["gather"]["x"], [1.0, 0.6])
            self.assertEqual(irm["gather"]["sms"], [50, 100])
            self.assertNotEqual(irm["triad"]["color"], irm["gather"]["color"])
            # Only triad has FLOPs: one series on the FLOP roofline, at AI 0.5, 50 -> 200.
            flop = data["trajectory_flop_roofline"]
            self.assertEqual([(s["kernel"], s["x"], s["y"]) for s in flop],
                             [("triad", [0.5, 0.5], [50, 200])])
            self.assertTrue(os.path.isfile(os.path.join(d, "trajectory_instruction_roofline.png")))

    def test_a_profile_is_not_a_trajectory(self):
        with tempfile.TemporaryDirectory() as d:
            src = write_json(os.path.join(d, "p.json"), {"schema": "irf.profile/v1"})
            code, err, _ = run_plot(["--trajectory", src, "-o", d])
            self.assertEqual(code, 2)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertIn("irf.trajectory/v1", err)


if __name__ == "__main__":
    unittest.main()
