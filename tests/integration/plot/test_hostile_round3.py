# SPDX-License-Identifier: Apache-2.0
"""irf-plot, hostile input round 3 (issue 52 item 8): mathtext in pipe names and in trajectory
verdicts is drawn as typed (it was a traceback), and a verdict that is not an object is one
line, exit 2 (it was an AttributeError)."""
import os
import tempfile
import unittest

from plot_support import golden, have_matplotlib, kernel_at, plot_data, run_plot, write_json
from test_trajectory_plot import trajectory

# Not valid mathtext: matplotlib raises when it parses this between dollars.
MATH = r"$\notacommand{x}$"
ESCAPED = r"\$\notacommand{x}\$"


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class HostileRoundThree(unittest.TestCase):
    def test_mathtext_in_a_pipe_name_is_drawn_as_typed(self):
        doc = golden()
        k = kernel_at(doc["kernels"][0], "fp64_heavy", 1.0, 10.0, 1e6)
        k["analysis"]["pipes"] = {"ceiling_gips": 871.2, "binding": "issue", "by_pipe": {
            MATH: {"gips": 6.0, "ceiling_gips": 522.72, "pct": 1.148}}}
        doc["kernels"] = [k]
        doc["ceilings_used"]["pipe_gips"] = {MATH: 522.72}
        with tempfile.TemporaryDirectory() as tmp:
            # Saved too: the PNG's own rendering parses the text again.
            code, err, data = plot_data(doc, tmp, save_figures=True,
                                        figures=["instruction_roofline"])
        self.assertEqual(code, 0, err)
        self.assertNotIn("Traceback", err)
        texts = [t["text"] for t in data["instruction_roofline"]["axes"][0]["texts"]]
        self.assertIn(ESCAPED + " pipe 522.7 warp GIPS", texts)

    def test_mathtext_in_a_verdict_is_drawn_as_typed(self):
        doc = trajectory()
        doc["kernels"][0]["verdict"] = {"kind": MATH, "reason": MATH}
        with tempfile.TemporaryDirectory() as d:
            src = write_json(os.path.join(d, "t.json"), doc)
            code, err, _ = run_plot(["--trajectory", src, "-o", d, "--format", "png"])
            self.assertEqual(code, 0, err)
            self.assertNotIn("Traceback", err)
            self.assertTrue(os.path.isfile(os.path.join(d, "trajectory_instruction_roofline.png")))

    def test_a_verdict_that_is_not_an_object_is_one_line(self):
        for verdict in ("ideal", ["ideal"], 3, {"kind": 5}):
            doc = trajectory()
            doc["kernels"][1]["verdict"] = verdict
            with self.subTest(verdict=verdict), tempfile.TemporaryDirectory() as d:
                src = write_json(os.path.join(d, "t.json"), doc)
                code, err, _ = run_plot(["--trajectory", src, "-o", d])
                self.assertEqual(code, 2, err)
                self.assertEqual(err.count("\n"), 1, err)
                self.assertIn("kernels[1].verdict: expected an object with a string kind", err)


if __name__ == "__main__":
    unittest.main()
