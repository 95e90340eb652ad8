# SPDX-License-Identifier: Apache-2.0
"""The figure data of plot_data's in-process run (figures drawn, not saved) equals that of
irf-plot run whole, so the tests that read the data in process check what irf-plot writes."""
import os
import tempfile
import unittest

from plot_support import golden, have_matplotlib, plot_data


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class InProcessData(unittest.TestCase):
    def test_the_data_equals_a_whole_run_and_no_figure_is_written(self):
        doc = golden()
        with tempfile.TemporaryDirectory() as whole, tempfile.TemporaryDirectory() as inside:
            code, err, saved = plot_data(doc, whole, "svg", ["--top", "15"], save_figures=True)
            self.assertEqual(code, 0, err)
            code, err, drawn = plot_data(doc, inside, "svg", ["--top", "15"])
            self.assertEqual(code, 0, err)
            self.assertTrue(os.listdir(os.path.join(whole, "out")))
            self.assertEqual(os.listdir(os.path.join(inside, "out")), [])
        self.assertEqual(sorted(drawn), sorted(saved))
        self.assertEqual(drawn, saved)

    def test_a_usage_error_is_exit_2_with_its_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(golden(), tmp, "svg", ["--top", "-3"])
        self.assertEqual(code, 2)
        self.assertIsNone(data)
        self.assertIn("--top", err)


if __name__ == "__main__":
    unittest.main()
