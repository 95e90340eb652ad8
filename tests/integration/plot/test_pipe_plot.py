# SPDX-License-Identifier: Apache-2.0
"""Pipe sub-ceilings on the Instruction Roofline (docs/model.md, "Pipe sub-ceilings"), read
from irf-plot --dump-data."""
import tempfile
import unittest

from plot_support import golden, have_matplotlib, kernel_at, plot_data


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class PipeSubCeilings(unittest.TestCase):
    """#18 item 11: the busiest pipe's peak is a dashed sub-ceiling, and its point is the
    kernel's warp-based point scaled by the pipe's share of the instructions."""

    def test_busiest_pipe_point_and_its_peak(self):
        doc = golden()
        k = kernel_at(doc["kernels"][0], "fp64_heavy", 1.0, 10.0, 1e6)
        # fp64: 6 of the 10 warp GIPS (share 0.6) at 1.15% of its peak; lsu 1 GIPS at 0.38%.
        k["analysis"]["pipes"] = {"ceiling_gips": 871.2, "binding": "fp64", "by_pipe": {
            "fp64": {"gips": 6.0, "ceiling_gips": 522.72, "pct": 1.148},
            "lsu": {"gips": 1.0, "ceiling_gips": 261.36, "pct": 0.383}}}
        doc["kernels"] = [k]
        doc["ceilings_used"]["pipe_gips"] = {"fp64": 522.72, "lsu": 261.36}
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, figures=["instruction_roofline"])
        self.assertEqual(code, 0, err)
        axes = data["instruction_roofline"]["axes"][0]
        (pipe,) = [p for p in axes["points"] if p["role"] == "pipe"]
        # x = 0.6 x 1.0 fp64 instructions per L1 transaction, y = 6 warp GIPS.
        self.assertAlmostEqual(pipe["x"], 0.6)
        self.assertAlmostEqual(pipe["y"], 6.0)
        texts = [t["text"] for t in axes["texts"]]
        self.assertIn("fp64 pipe 522.7 warp GIPS", texts)
        self.assertNotIn("lsu pipe 261.4 warp GIPS", texts)  # only the busiest pipe's peak
        self.assertIn("busiest pipe: its instructions, its peak", axes["legend"])

    def test_a_pipe_peak_equal_to_the_issue_peak_is_not_drawn_twice(self):
        doc = golden()
        k = kernel_at(doc["kernels"][0], "fp32_heavy", 1.0, 10.0, 1e6)
        k["analysis"]["pipes"] = {"ceiling_gips": 1045.44, "binding": "issue", "by_pipe": {
            "fp32": {"gips": 9.0, "ceiling_gips": 1045.44, "pct": 0.861}}}
        doc["kernels"] = [k]
        doc["ceilings_used"]["warp_gips"] = 1045.44
        doc["ceilings_used"]["pipe_gips"] = {"fp32": 1045.44}
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, figures=["instruction_roofline"])
        self.assertEqual(code, 0, err)
        axes = data["instruction_roofline"]["axes"][0]
        self.assertEqual(len([p for p in axes["points"] if p["role"] == "pipe"]), 1)
        self.assertFalse([t for t in axes["texts"] if t["text"].startswith("fp32 pipe")])

    def test_no_pipe_point_without_a_mix(self):
        doc = golden()
        k = kernel_at(doc["kernels"][0], "no_mix", 1.0, 10.0, 1e6)
        k["analysis"]["pipes"] = None
        doc["kernels"] = [k]
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, figures=["instruction_roofline"])
        self.assertEqual(code, 0, err)
        points = data["instruction_roofline"]["axes"][0]["points"]
        self.assertFalse([p for p in points if p["role"] == "pipe"])


if __name__ == "__main__":
    unittest.main()


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class ThreadOnlyPoints(unittest.TestCase):
    """An export with thread instructions but no warp instructions (nvprof --events
    thread_inst_executed, ncu summaries): the model gives IRM 3.2's thread-based point only
    (gips_warp null); the figure draws it instead of an empty plot."""

    def test_thread_dots_are_drawn_without_warp_points(self):
        doc = golden()
        k = kernel_at(doc["kernels"][0], "transpose", 1.0, 10.0, 1e6)
        # The public V100S transpose: 19.8256 thread GIPS at ii_thread 0.8 (L1), 0.7747 (L2)
        # and 1.925 (HBM) transactions per (thread instruction / 32).
        k["analysis"]["irm"].update({"gips_warp": None, "gips_thread": 19.8256,
                                     "ii": {"l1": None, "l2": None, "hbm": None},
                                     "ii_thread": {"l1": 0.8, "l2": 0.7747, "hbm": 1.925}})
        k["analysis"].pop("pipes", None)
        doc["kernels"] = [k]
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, figures=["instruction_roofline"])
        self.assertEqual(code, 0, err)
        points = data["instruction_roofline"]["axes"][0]["points"]
        dots = sorted((p["x"], p["y"]) for p in points if p["kernel"] == "transpose")
        self.assertEqual(len(dots), 3, points)
        for (x, y), want in zip(dots, [0.7747, 0.8, 1.925]):
            self.assertAlmostEqual(x, want)
            self.assertAlmostEqual(y, 19.8256)
        self.assertFalse([p for p in points if p["role"] == "warp"])
