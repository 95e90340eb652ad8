# SPDX-License-Identifier: Apache-2.0
"""NVTX regions on the Instruction Roofline and the FLOP roofline (docs/regions.md): where each
region's diamond sits, how big it is, and its legend row, read from irf-plot --dump-data."""
import tempfile
import unittest

from plot_support import golden, have_matplotlib, plot_data


def region(path, time_ns, ii, gips, shares, flops=None, gflops=0.0, ai=None):
    return {"path": path, "time_ns": time_ns, "launches": 4, "kernels": 2,
            "analysis": {"ii": ii, "gips_warp": gips, "bound_shares": shares,
                         "flops": flops or {"fp64": 0.0, "fp32": 0.0, "fp16": 0.0,
                                            "tensor": 0.0},
                         "gflops": gflops, "ai": ai or {"l1": None, "l2": None, "hbm": None},
                         "inst_warp": 1e6, "profiled_launches": 1, "profiled_time_ns": 1e5,
                         "transactions": {"l1": None, "l2": None, "hbm": None}}}


@unittest.skipUnless(have_matplotlib(), "matplotlib is not installed")
class RegionMarkers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        doc = golden()
        doc["regions"] = [
            # 70% of its time L2-bound: drawn at its L2 point (2.0, 40) and, FP32 being its
            # only precision, on the FP32 panel at its L2 arithmetic intensity (1.0, 500).
            region("train/fwd", 3e6, {"l1": 0.5, "l2": 2.0, "hbm": 8.0}, 40.0,
                   {"l2": 0.7, "issue": 0.3},
                   {"fp64": 0.0, "fp32": 1e9, "fp16": 0.0, "tensor": 0.0}, 500.0,
                   {"l1": 0.1, "l2": 1.0, "hbm": 4.0}),
            # Undecided bound: HBM first, (4.0, 20); tensor FLOPs ran: the tensor panel at
            # (30, 900). The longest region: R1, the largest diamond.
            region("train/bwd", 6e6, {"l1": 0.25, "l2": 1.0, "hbm": 4.0}, 20.0,
                   {"undecided": 1.0},
                   {"fp64": 0.0, "fp32": 1e8, "fp16": 0.0, "tensor": 2e9}, 900.0,
                   {"l1": 2.0, "l2": 8.0, "hbm": 30.0}),
            # No transactions measured and no FLOPs: on neither figure, and longer than
            # train/fwd: it must take no number, so train/fwd is R2, not R3 (no gaps).
            region("io", 4e6, {"l1": None, "l2": None, "hbm": None}, 0.1, {"undecided": 1.0}),
        ]
        code, err, cls.data = plot_data(doc, cls.dir.name,
                                       figures=["instruction_roofline", "flop_roofline"])
        cls.result = (code, err)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def regions_in(self, axes):
        return {p["kernel"]: p for p in axes["points"] if p["role"] == "region"}

    def test_run_succeeds(self):
        code, err = self.result
        self.assertEqual(code, 0, err)

    def test_instruction_roofline_has_one_diamond_per_region_at_its_level(self):
        axes = self.data["instruction_roofline"]["axes"][0]
        drawn = self.regions_in(axes)
        self.assertEqual(sorted(drawn), ["train/bwd", "train/fwd"])
        self.assertEqual((drawn["train/fwd"]["x"], drawn["train/fwd"]["y"]), (2.0, 40.0))
        self.assertEqual((drawn["train/bwd"]["x"], drawn["train/bwd"]["y"]), (4.0, 20.0))
        self.assertEqual(drawn["train/bwd"]["number"], "R1")
        self.assertEqual(drawn["train/fwd"]["number"], "R2")
        self.assertEqual(drawn["train/bwd"]["marker"], "D")

    def test_regions_are_hollow_greys_behind_the_kernels(self):
        axes = self.data["instruction_roofline"]["axes"][0]
        regions = self.regions_in(axes)
        kernels = {p["color"] for p in axes["points"] if p["role"] != "region"}
        for r in regions.values():
            self.assertEqual(r["face"], "none")  # hollow: the kernel marker under it shows
            self.assertNotIn(r["color"], kernels)  # never a kernel's colour
            self.assertEqual(r["color"][1:3], r["color"][3:5])  # a grey (equal R, G, B)

    def test_marker_area_grows_with_time(self):
        drawn = self.regions_in(self.data["instruction_roofline"]["axes"][0])
        # Longest (6 ms): 520 points^2; half as long (3 ms): 70 + 450 * 0.5 = 295.
        self.assertAlmostEqual(drawn["train/bwd"]["size"], 520.0)
        self.assertAlmostEqual(drawn["train/fwd"]["size"], 295.0)

    def test_legend_names_each_region_with_its_time(self):
        legend = self.data["instruction_roofline"]["axes"][0]["legend"]
        self.assertIn("R1  region train/bwd (6.00 ms)", legend)
        self.assertIn("R2  region train/fwd (3.00 ms)", legend)
        self.assertFalse(any("region io" in row for row in legend))

    def test_flop_roofline_puts_each_region_on_its_precision_panel(self):
        panels = {ax["title"]: self.regions_in(ax)
                  for ax in self.data["flop_roofline"]["axes"] if ax["title"]}
        self.assertEqual(list(panels["FP32"]), ["train/fwd"])
        self.assertEqual((panels["FP32"]["train/fwd"]["x"], panels["FP32"]["train/fwd"]["y"]),
                         (1.0, 500.0))
        self.assertEqual(list(panels["Tensor Core"]), ["train/bwd"])
        self.assertEqual(
            (panels["Tensor Core"]["train/bwd"]["x"], panels["Tensor Core"]["train/bwd"]["y"]),
            (30.0, 900.0))


if __name__ == "__main__":
    unittest.main()
